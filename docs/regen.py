#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The outputs pasted into README.md and docs/*.md, made from real runs.

A pasted block is the indented block right after a marker line

    <!-- regen: perpkt report -i arm64.json --limit 6 | sed -n '/^mode/,$p' -->

whose text is a shell command run in a folder holding the example
profiles (docs/examples/NAME.json.gz, unpacked as NAME.json), with
`perpkt` on PATH. The profiles come from real runs (RECIPES below).

  docs/regen.py --record [NAME...]  record the example profiles again
                                    (real runs: some need a kernel image
                                    and an arm64 cross-build)
  docs/regen.py --write             rewrite every marked block from them
  docs/regen.py --check             exit 1 when a block no longer has the
                                    shape of today's output: its words in
                                    order (labels, sections, names), not
                                    its numbers and not where lines wrap
                                    (tests/cli/t0010); and when a pasted
                                    transcript ("$ perpkt report ...") reads
                                    only example profiles but has no
                                    marker, so nothing would check it

PERPKT names the binary (default build/perpkt); --record needs root.
"""
import argparse
import difflib
import gzip
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "docs", "examples")
MARK = re.compile(r"^<!-- regen: (.*) -->$")
ARM64 = "6.1.0-57-cloud-arm64"

# name -> (what it needs, the record command: $PERPKT, $KERNEL_ARM64 and
# $GUEST set); each writes NAME.json in the current folder
RECIPES = {
    # the guide's worked example: the default ping-pong, and the same
    # with the responder on the other CPU
    "same": ("root", '"$PERPKT" record -g -d 5 -o same.json'),
    "cross": ("root", '"$PERPKT" record -g -d 5 --client-cpu 1 --server-cpu 0 '
              "-o cross.json"),
    "arm64": ("an arm64 kernel and cross-build (make lab-arm64)",
              '"$PERPKT" record --kernel "$KERNEL_ARM64" --guest-perpkt "$GUEST" '
              "-d 1 -w 0.2 -o arm64.json"),
    "icount": ("an arm64 kernel and cross-build (make lab-arm64)",
               '"$PERPKT" record --kernel "$KERNEL_ARM64" --guest-perpkt "$GUEST" '
               "--qemu-arg=-icount --qemu-arg=shift=0 --qemu-arg=-smp --qemu-arg=1 "
               "-d 0.3 -w 0.1 -o icount.json"),
    "a57": ("an arm64 kernel and cross-build (make lab-arm64)",
            '"$PERPKT" record --kernel "$KERNEL_ARM64" --guest-perpkt "$GUEST" '
            "--qemu-arg=-cpu --qemu-arg=cortex-a57 "
            "-e arm_ac57::CPU_CYCLES,arm_ac57::INST_RETIRED -d 1 -w 0.2 -o a57.json"),
    # perpkt-bisect over tests/lab/kernel-tree.sh's series (make check-lab's
    # t0809): what it printed, its log, the first bad commit's profile and
    # its parent's, and annotate udp_sendmsg (the vmlinux it needs stays
    # in the cache, so the text is kept as it came)
    "bisect": ("the kernel tree of tests/lab/kernel-tree.sh (linux-source-6.1, "
               "its build tools: make deps-lab)",
               'tree=$("$ROOT/tests/lab/kernel-tree.sh") && '
               'export CCACHE_DIR="$CACHE/ccache" && '
               '"$ROOT/src/lab/perpkt-bisect" -C "$tree" --out "$PWD/bisect" '
               '--make "make -j$(nproc) CC=\'ccache gcc\' olddefconfig >/dev/null && '
               'make -j$(nproc) CC=\'ccache gcc\' bzImage" '
               "--fail-if 'total > +1%' base series >bisect.out && "
               'sed "s|$PWD/||g" bisect.out >bisect.txt && '
               'sed "s|$PWD/||g" bisect/bisect.log >bisect-log.txt && '
               'first=$(git -C "$tree" log --format=%H --grep="^udp: account" base..series) && '
               'cp bisect/*/"$first".json bisect-bad.json && '
               'cp bisect/*/"$(git -C "$tree" rev-parse "$first^")".json bisect-parent.json && '
               '"$PERPKT" annotate -i bisect-bad.json udp_sendmsg >bisect-annotate.txt'),
}


def docs():
    yield os.path.join(ROOT, "README.md")
    d = os.path.join(ROOT, "docs")
    for f in sorted(os.listdir(d)):
        if f.endswith(".md"):
            yield os.path.join(d, f)


def blocks(lines):
    """(marker index, command, first, end) of each marked block: the
    indented lines after the marker (one blank line between allowed)."""
    for i, line in enumerate(lines):
        m = MARK.match(line.rstrip("\n"))
        if not m:
            continue
        j = i + 1
        if j < len(lines) and not lines[j].strip():
            j += 1
        k = j
        while k < len(lines) and (lines[k].startswith("    ") or
                                  (not lines[k].strip() and k + 1 < len(lines) and
                                   lines[k + 1].startswith("    "))):
            k += 1
        yield i, m.group(1), j, k


# the commands that only read profiles: their output is today's to check
READERS = ("report", "diff", "annotate", "table", "resolve")
TRANSCRIPT = re.compile(r"^\$ perpkt (\S+)(.*)$")


def unmarked(lines, d):
    """(line index, command) of each fenced transcript of a reading
    command whose every profile is an example one (in folder d): regen
    could know it, so it must carry a marker instead."""
    for i, line in enumerate(lines[:-1]):
        if line.rstrip("\n") != "```":
            continue
        m = TRANSCRIPT.match(lines[i + 1].rstrip("\n"))
        if not m or m.group(1) not in READERS:
            continue
        files = [w for w in m.group(2).split() if w.endswith(".json")]
        if files and all(os.path.exists(os.path.join(d, f)) for f in files):
            yield i + 1, lines[i + 1][2:].strip()


def perpkt():
    p = os.environ.get("PERPKT", os.path.join(ROOT, "build", "perpkt"))
    if not os.access(p, os.X_OK):
        sys.exit(f"regen: no perpkt at '{p}': build first, or set PERPKT")
    return os.path.abspath(p)


def scratch():
    """A folder with the example profiles unpacked and perpkt on PATH."""
    d = tempfile.mkdtemp(prefix="perpkt-regen.")
    os.mkdir(os.path.join(d, "bin"))
    os.symlink(perpkt(), os.path.join(d, "bin", "perpkt"))
    for f in sorted(os.listdir(EXAMPLES)) if os.path.isdir(EXAMPLES) else []:
        if f.endswith(".txt"):
            shutil.copy(os.path.join(EXAMPLES, f), d)
        if f.endswith(".json.gz"):
            with gzip.open(os.path.join(EXAMPLES, f)) as src, \
                    open(os.path.join(d, f[:-3]), "wb") as dst:
                shutil.copyfileobj(src, dst)
    return d


def render(d, cmd):
    env = dict(os.environ, PATH=os.path.join(d, "bin") + ":" + os.environ["PATH"],
               COLUMNS="72")
    r = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], cwd=d, env=env,
                       capture_output=True, text=True)
    if r.returncode not in (0, 1):
        raise RuntimeError(f"'{cmd}' exited {r.returncode}: {r.stderr.strip()[-300:]}")
    return r.stdout.rstrip("\n").split("\n")


def shape(text_lines):
    """The words in order: labels, sections and names, not numbers, not
    where lines wrap or how columns are padded."""
    return re.findall(r"[A-Za-z_][A-Za-z_:()\[\]'-]*[A-Za-z_)\]]|[A-Za-z]",
                      "\n".join(text_lines))


def record(names):
    if os.geteuid() != 0:
        sys.exit("regen: --record runs perpkt record: run it as root")
    cache = os.environ.get("PERPKT_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "perpkt")
    env = dict(os.environ, PERPKT=perpkt(), ROOT=ROOT, CACHE=cache,
               KERNEL_ARM64=os.path.join(cache, "kernels", ARM64, "boot", "vmlinuz-" + ARM64),
               GUEST=os.path.join(ROOT, "build-arm64", "perpkt"))
    os.makedirs(EXAMPLES, exist_ok=True)
    bad = 0
    for name in names or sorted(RECIPES):
        need, cmd = RECIPES[name]
        d = tempfile.mkdtemp(prefix="perpkt-regen.")
        print(f"regen: recording {name}: {cmd}", file=sys.stderr)
        r = subprocess.run(["bash", "-c", cmd], cwd=d, env=env)
        made = [f for f in sorted(os.listdir(d))
                if f.startswith(name) and f.endswith((".json", ".txt"))]
        ok = r.returncode in (0, 1) and any(f.endswith(".json") for f in made)
        if not ok:
            print(f"regen: {name} not recorded (exit {r.returncode}; it needs {need})",
                  file=sys.stderr)
            bad = 1
        for f in made if ok else []:
            if f.endswith(".txt"):
                shutil.copy(os.path.join(d, f), EXAMPLES)
                continue
            with open(os.path.join(d, f), "rb") as src, \
                    gzip.GzipFile(os.path.join(EXAMPLES, f + ".gz"), "wb",
                                  mtime=0) as dst:
                shutil.copyfileobj(src, dst)
        shutil.rmtree(d, ignore_errors=True)
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--record", nargs="*", metavar="NAME")
    g.add_argument("--write", action="store_true")
    g.add_argument("--check", action="store_true")
    a = ap.parse_args()
    if a.record is not None:
        unknown = [n for n in a.record if n not in RECIPES]
        if unknown:
            sys.exit(f"regen: no recipe for {unknown}: {sorted(RECIPES)}")
        return record(a.record)

    d = scratch()
    bad = n = 0
    try:
        for path in docs():
            with open(path) as f:
                lines = f.readlines()
            out, last = [], 0
            for i, cmd in unmarked(lines, d) if a.check else []:
                bad = 1
                print(f"{os.path.relpath(path, ROOT)}:{i + 1}: '{cmd}' is pasted "
                      "without a regen marker though it reads example profiles: "
                      "mark it (<!-- regen: COMMAND -->) so t0010 checks it",
                      file=sys.stderr)
            for i, cmd, first, end in blocks(lines):
                n += 1
                where = f"{os.path.relpath(path, ROOT)}:{i + 1}"
                try:
                    now = render(d, cmd)
                except RuntimeError as e:
                    print(f"{where}: {e}", file=sys.stderr)
                    bad = 1
                    continue
                if a.write:
                    out += lines[last:first]
                    out += [("    " + l).rstrip() + "\n" for l in now]
                    last = end
                else:
                    was = [l[4:] for l in lines[first:end]]
                    if shape(was) != shape(now):
                        bad = 1
                        print(f"{where}: the block after '{cmd}' no longer has the "
                              "shape of today's output (docs/regen.py --write):",
                              file=sys.stderr)
                        for l in list(difflib.unified_diff(shape(was), shape(now),
                                                           "doc", "today", n=2,
                                                           lineterm=""))[2:24]:
                            print("   " + l, file=sys.stderr)
            if a.write and last:
                out += lines[last:]
                with open(path, "w") as f:
                    f.writelines(out)
    finally:
        shutil.rmtree(d, ignore_errors=True)
    if not n:
        print("regen: no marked blocks found", file=sys.stderr)
        return 1
    print(f"regen: {n} marked blocks {'written' if a.write else 'checked'}"
          f"{', some failed' if bad else ''}", file=sys.stderr)
    return bad


if __name__ == "__main__":
    sys.exit(main())
