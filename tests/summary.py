#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The end of a check (tests/check.sh): every skipped test with its
reason, every failed one, the slowest tests and the total, from ctest's
JUnit file. Exits 1 when a test of this run that --require names
skipped: space-separated regular expressions matched against test names
(re.search), or label:NAME for each test carrying that ctest label (the
labels are read with `ctest --show-only=json-v1` in the current folder)."""
import argparse
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

SLOWEST = 8


def skip_reason(output):
    """The test's own reason: its last `SKIP: ...` line (tests/cli/lib.sh
    skip), else its last non-empty line."""
    lines = [l.strip() for l in (output or "").splitlines() if l.strip()]
    for line in reversed(lines):
        if line.startswith("SKIP:"):
            return line[len("SKIP:"):].strip()
    return lines[-1] if lines else "(the test printed no reason)"


def cmocka_reason(lines):
    """A cmocka test's failures: each failed case with its assertion,
    where, and the last line it printed ("test_cross_cpu: res.round_trips
    >= 200 at test-workload.c:112; said: cross cpu (0, 1): 12 round
    trips ..."); None when the output is not cmocka's."""
    errors, where, said, names = [], [], {}, []
    case = None
    for l in lines:
        m = re.match(r"\[ RUN +\] (\S+)", l)
        if m:
            case = m.group(1)
            continue
        m = re.match(r"\[  ERROR +\] --- (.*)", l)
        if m:
            errors.append(m.group(1).strip())
            continue
        m = re.match(r"\[ +LINE +\] --- (\S+?):? (?:error: )?", l)
        if m:
            where.append(re.sub(r"^.*/", "", m.group(1)).rstrip(":"))
            continue
        m = re.match(r"\[  FAILED  \] (\S+)$", l)
        if m:
            if m.group(1) not in names:
                names.append(m.group(1))
            case = None
            continue
        if case and not l.startswith("["):
            said[case] = l
    if not errors and not names:
        return None
    parts = []
    for i, name in enumerate(names or [None] * len(errors)):
        what = errors[i] if i < len(errors) else "failed"
        at = f" at {where[i]}" if i < len(where) else ""
        s = f"{name + ': ' if name else ''}{what}{at}"
        if name in said:
            s += f"; said: {said[name]}"
        parts.append(s)
    return "; ".join(parts)


def fail_reason(output, message):
    """Why a test failed, from its output: its last `FAIL: ...` line
    (tests/cli/lib.sh fail), a cmocka test's failed cases and
    assertions, else the last line naming an error or an assertion,
    else its last line, else ctest's message."""
    lines = [l.strip() for l in (output or "").splitlines() if l.strip()]
    fails = [l for l in lines if l.startswith("FAIL:")]
    if fails:
        return fails[-1]
    r = cmocka_reason(lines)
    if r:
        return r
    for line in reversed(lines):
        if re.search(r"FAIL|[Aa]ssert|ERROR|[Ee]rror|Sanitizer|panic|Segmentation", line):
            return line
    if lines:
        return lines[-1]
    return (message or "").strip() or "(the test printed nothing)"


def labelled(label):
    """Names of the tests in this build folder that carry LABEL."""
    try:
        out = subprocess.run(["ctest", "--show-only=json-v1"], capture_output=True,
                             text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit(f"summary: cannot list the tests' labels: {e}")
    names = []
    for t in json.loads(out).get("tests", []):
        for p in t.get("properties", []):
            if p.get("name") == "LABELS" and label in p.get("value", []):
                names.append(t["name"])
    return names


def minutes(s):
    s = int(round(s))
    return f"{s // 60} min {s % 60} s" if s >= 60 else f"{s} s"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--name", required=True)
    ap.add_argument("--junit", required=True)
    ap.add_argument("--wall", type=float, default=None)
    ap.add_argument("--require", default="")
    ap.add_argument("--rerun-junit", default=None,
                    help="the failed tests' second run: one that passed there is flaky")
    a = ap.parse_args()

    try:
        root = ET.parse(a.junit).getroot()
    except (OSError, ET.ParseError) as e:
        print(f"{a.name}: no test results ({a.junit}: {e})")
        return 1
    cases = []
    for tc in root.iter("testcase"):
        status = "passed"
        reason = ""
        out = tc.findtext("system-out") or ""
        sk = tc.find("skipped")
        if sk is not None:
            status, reason = "skipped", skip_reason(out)
        elif tc.find("failure") is not None or tc.find("error") is not None:
            el = tc.find("failure") if tc.find("failure") is not None else tc.find("error")
            status = "failed"
            reason = fail_reason(out, el.get("message"))
        st = tc.get("status")
        if st in ("notrun", "disabled") and status == "passed":
            status, reason = "skipped", skip_reason(out)
        cases.append((tc.get("name"), status, reason, float(tc.get("time") or 0)))

    if a.rerun_junit:
        try:
            again = {tc.get("name"): tc for tc in ET.parse(a.rerun_junit).getroot().iter("testcase")}
        except (OSError, ET.ParseError) as e:
            print(f"{a.name}: no results of the rerun ({a.rerun_junit}: {e})")
            again = {}
        for i, c in enumerate(cases):
            tc = again.get(c[0])
            if c[1] == "failed" and tc is not None and tc.find("failure") is None \
                    and tc.find("error") is None and tc.find("skipped") is None \
                    and tc.get("status") not in ("notrun", "disabled"):
                cases[i] = (c[0], "flaky", c[2], c[3])
    n = {s: sum(1 for c in cases if c[1] == s) for s in ("passed", "skipped", "failed", "flaky")}
    total = sum(c[3] for c in cases)
    print(f"\n== {a.name}: {len(cases)} tests: {n['passed']} passed, {n['skipped']} skipped, "
          f"{n['failed']} failed"
          + (f", {n['flaky']} failed once and passed on rerun" if n["flaky"] else "")
          + f"; {minutes(total)} of tests"
          + (f", {minutes(a.wall)} in all" if a.wall is not None else ""))
    for title, st in (("skipped", "skipped"), ("failed", "failed"),
                      ("flaky (failed, then passed on rerun; first failure shown)", "flaky")):
        rows = [c for c in cases if c[1] == st]
        if rows:
            print(f"{title}:")
            for c in rows:
                print(f"  {c[0]}: {c[2]}")
    slow = sorted(cases, key=lambda c: -c[3])[:SLOWEST]
    if slow:
        print("slowest: " + ", ".join(f"{c[0]} {c[3]:.0f} s" for c in slow))

    # a test that failed and did not pass on its rerun fails the check,
    # whatever the rerun's own exit said (it may have skipped there)
    bad = [f"{c[0]}: failed" for c in cases if c[1] == "failed" and a.rerun_junit]
    ran = {c[0]: c for c in cases}
    for pat in a.require.split():
        if pat == "installed":
            # a skip for a package the set-up installs (its reason names
            # the apt-get install): the set-up missed it, a green run
            # would hide that
            want = [c for c in cases if "apt-get install" in (c[2] or "")]
        elif pat.startswith("label:"):
            want = [ran[x] for x in labelled(pat[len("label:"):]) if x in ran]
        else:
            want = [c for c in cases if re.search(pat, c[0])]
        bad += [f"{c[0]}: required but skipped ({c[2]})" for c in want if c[1] == "skipped"]
    if bad:
        print(f"{a.name}: tests that failed, or that must run (PERPKT_REQUIRE) and skipped:")
        for b in bad:
            print(f"  {b}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
