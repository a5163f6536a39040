#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Benchmark: perpkt resolve against binutils addr2line and eu-addr2line on
# random text addresses of a real vmlinux with DWARF, and the time of
# perpkt report --vmlinux on a profile of that kernel. Not a ctest test
# (minutes long, needs a ~600 MB vmlinux); run it by hand:
#
#   apt-get download linux-image-6.1.0-57-cloud-amd64-dbg   # any -dbg
#   dpkg-deb -x linux-image-*-dbg_*.deb /tmp/kdbg
#   tests/bench/bench-resolve.sh build/perpkt \
#       /tmp/kdbg/usr/lib/debug/boot/vmlinux-6.1.0-57-cloud-amd64 \
#       [PROFILE] [N] [PAIRS]
#
# PROFILE: a profile recorded on that kernel (perpkt record --kernel
# gives one), for the report timing; "-" skips it. Each of PAIRS rounds
# (default 5) draws N (default 10,000) new distinct addresses, uniform
# over the bytes of the text symbols that have a size, and runs each tool
# once on them, interleaved, page cache warm; the figures are medians over
# the rounds. Like for like: perpkt's text output against addr2line's
# text; the agreement reads perpkt's --format json, run on its own.
# An address agrees when every frame (function and file:line, inlined
# frames innermost first, then the function itself) is the same;
# "innermost" compares only the first frame and its function.
set -eu
usage="usage: bench-resolve.sh PERPKT VMLINUX [PROFILE|-] [N] [PAIRS]"
PERPKT=${1:?$usage}
VMLINUX=${2:?$usage}
PROFILE=${3:--}
N=${4:-10000}
PAIRS=${5:-5}
for t in addr2line eu-addr2line jq nm python3; do
	command -v $t >/dev/null || { echo "bench-resolve: needs $t" >&2; exit 2; }
done
W=$(mktemp -d "${TMPDIR:-/tmp}/bench-resolve.XXXXXX")
trap 'rm -rf "$W"' EXIT

nm -n -S --defined-only "$VMLINUX" >"$W/nm"
addrs() {
	python3 -c '
import bisect, random, sys
n, seed = int(sys.argv[1]), int(sys.argv[2])
starts, cum, total = [], [], 0
for l in open(sys.argv[3]):
    f = l.split()
    if len(f) == 4 and f[2] in "tTwW" and int(f[1], 16):
        starts.append(int(f[0], 16)); total += int(f[1], 16); cum.append(total)
r, seen = random.Random(seed), set()
while len(seen) < n:
    x = r.randrange(total); i = bisect.bisect_right(cum, x)
    seen.add(starts[i] + x - (cum[i - 1] if i else 0))
for a in sorted(seen, key=lambda a: r.random()): print(hex(a))
' "$N" "$1" "$W/nm"
}

cat "$VMLINUX" >/dev/null   # same warm page cache for every tool
# Wall time of one command, in seconds, to the file named first.
timed() {
	local out=$1; shift
	local t0 t1
	t0=$(date +%s.%N)
	"$@" || [ $? = 1 ]
	t1=$(date +%s.%N)
	python3 -c "print($t1 - $t0)" >>"$out"
}
for ((i = 1; i <= PAIRS; i++)); do
	addrs $i >"$W/addrs.$i"
	timed "$W/t.perpkt" "$PERPKT" resolve --vmlinux "$VMLINUX" <"$W/addrs.$i" >"$W/perpkt.$i.txt"
	timed "$W/t.binutils" addr2line -f -i -a -e "$VMLINUX" <"$W/addrs.$i" >"$W/binutils.$i.out"
	timed "$W/t.elfutils" eu-addr2line -f -i -a -e "$VMLINUX" <"$W/addrs.$i" >"$W/elfutils.$i.out"
	if [ "$PROFILE" != - ]; then
		timed "$W/t.report" "$PERPKT" report -i "$PROFILE" --vmlinux "$VMLINUX" >/dev/null
	fi
	timed "$W/t.json" "$PERPKT" resolve --vmlinux "$VMLINUX" --format json <"$W/addrs.$i" >"$W/perpkt.$i.json"
done

# Frame lists: inlined frames innermost first, then the function, each
# "function file:line", paths relative to the kernel tree (Debian's
# build directory and source root stripped).
cat >"$W/compare.py" <<'PY'
import json, os, re, statistics, sys
def norm(p):
    if p == "??":
        return p
    p = re.sub(r"^/build/.*?/linux-[^/]*/", "", p)
    return os.path.normpath(re.sub(r"^debian/build/[^/]*/", "", p))
def perpkt(path):
    out = {}
    for r in json.load(open(path))["results"]:
        fr = r["inlines"] + [r]
        out[int(r["addr"], 16)] = [(f["function"] or "??",
            norm(f["file"] or "??"), f["line"] or 0) for f in fr]
    return out
def tool(path):
    out, cur, name = {}, None, None
    for l in open(path):
        l = l.rstrip("\n")
        if re.fullmatch(r"0x[0-9a-f]+", l):
            cur = out.setdefault(int(l, 16), []); name = None
        elif name is None:
            name = l.split()[0] if l.split() else "??"
        else:
            loc = l.split(" (discriminator")[0].split()[0]
            m = re.fullmatch(r"(.*?):(\d+|\?)(?::\d+)?", loc)
            f, ln = (m.group(1), m.group(2)) if m else (loc, "0")
            cur.append((name, norm(f), int(ln) if ln.isdigit() else 0))
            name = None
    return out
W, pairs = sys.argv[1], int(sys.argv[2])
med = lambda k: statistics.median(float(x) for x in open(f"{W}/t.{k}"))
def rng(k):
    v = [float(x) for x in open(f"{W}/t.{k}")]
    return f"{min(v):.3f}-{max(v):.3f}"
tp, tb, te, tj = med("perpkt"), med("binutils"), med("elfutils"), med("json")
print(f"perpkt resolve:  median {tp:7.3f} s ({rng('perpkt')}; --format json {tj:.3f} s)")
print(f"addr2line -f -i: median {tb:7.3f} s ({rng('binutils')}): perpkt {tb / tp:.1f}x faster")
print(f"eu-addr2line -i: median {te:7.3f} s ({rng('elfutils')}): perpkt {te / tp:.1f}x faster")
if os.path.exists(f"{W}/t.report"):
    print(f"report --vmlinux: median {med('report'):.3f} s ({rng('report')})")
for t in ("binutils", "elfutils"):
    n = same = inner = 0
    for i in range(1, pairs + 1):
        p, o = perpkt(f"{W}/perpkt.{i}.json"), tool(f"{W}/{t}.{i}.out")
        for a in p:
            n += 1; same += p[a] == o.get(a)
            inner += bool(o.get(a)) and p[a][0] == o[a][0]
            if os.environ.get("BENCH_DIFF") and p[a] != o.get(a):
                print(t, hex(a), p[a], o.get(a), file=sys.stderr)
    print(f"{t:9} same innermost function and file:line {inner}/{n} ({100 * inner / n:.2f}%), "
          f"same whole inline chain {same}/{n} ({100 * same / n:.2f}%)")
PY
echo "vmlinux: $VMLINUX"
echo "$PAIRS rounds of $N distinct addresses (seeds 1-$PAIRS), tools interleaved"
python3 "$W/compare.py" "$W" "$PAIRS"
if [ -n "${BENCH_KEEP:-}" ]; then
	cp "$W"/* "$BENCH_KEEP"/
fi
