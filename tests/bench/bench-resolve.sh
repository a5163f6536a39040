#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Benchmark: perpkt resolve against binutils addr2line and eu-addr2line on
# the same random text addresses of a real vmlinux with DWARF. Not a
# ctest test (minutes long, needs a ~600 MB vmlinux); run it by hand:
#
#   apt-get download linux-image-6.1.0-57-cloud-amd64-dbg   # any -dbg
#   dpkg-deb -x linux-image-*-dbg_*.deb /tmp/kdbg
#   tests/bench/bench-resolve.sh build-sym/perpkt \
#       /tmp/kdbg/usr/lib/debug/boot/vmlinux-6.1.0-57-cloud-amd64 [N] [SEED]
#
# Prints each tool's wall time (symbol and DWARF loading included, page
# cache warm), perpkt's speed-up, and the agreement. Like for like: the
# speed-up compares text output (perpkt's default format, as addr2line
# prints text); perpkt's --format json run, which the agreement reads, is
# timed on its own line. An address agrees when
# every frame (function and file:line, inlined frames innermost first, then
# the function itself) is the same; "innermost" compares only the first
# frame, which is what addr2line without -i prints.
set -eu
PERPKT=${1:?usage: bench-resolve.sh PERPKT VMLINUX [N] [SEED]}
VMLINUX=${2:?usage: bench-resolve.sh PERPKT VMLINUX [N] [SEED]}
N=${3:-10000}
SEED=${4:-1}
for t in addr2line eu-addr2line jq nm python3 bc; do
	command -v $t >/dev/null || { echo "bench-resolve: needs $t" >&2; exit 2; }
done
W=$(mktemp -d "${TMPDIR:-/tmp}/bench-resolve.XXXXXX")
trap 'rm -rf "$W"' EXIT

# N distinct addresses, uniform over the bytes of the text symbols that
# have a size (functions: the holes between text sections hold none).
nm -n -S --defined-only "$VMLINUX" | python3 -c '
import bisect, random, sys
n, seed = int(sys.argv[1]), int(sys.argv[2])
starts, cum, total = [], [], 0
for l in sys.stdin:
    f = l.split()
    if len(f) == 4 and f[2] in "tTwW" and int(f[1], 16):
        starts.append(int(f[0], 16)); total += int(f[1], 16); cum.append(total)
r, seen = random.Random(seed), set()
while len(seen) < n:
    x = r.randrange(total); i = bisect.bisect_right(cum, x)
    seen.add(starts[i] + x - (cum[i - 1] if i else 0))
for a in sorted(seen, key=lambda a: r.random()): print(hex(a))
' "$N" "$SEED" >"$W/addrs"

cat "$VMLINUX" >/dev/null   # same warm page cache for every tool

now() { date +%s.%N; }
tj=$(now)
"$PERPKT" resolve --vmlinux "$VMLINUX" --format json <"$W/addrs" >"$W/perpkt.json" || [ $? = 1 ]
t0=$(now)
"$PERPKT" resolve --vmlinux "$VMLINUX" <"$W/addrs" >"$W/perpkt.txt" || [ $? = 1 ]
t1=$(now)
addr2line -f -i -a -e "$VMLINUX" <"$W/addrs" >"$W/binutils.out"
t2=$(now)
eu-addr2line -f -i -a -e "$VMLINUX" <"$W/addrs" >"$W/elfutils.out"
t3=$(now)

# Compare frame lists: inlined frames innermost first, then the function,
# each "function file:line", paths relative to the kernel tree (Debian's
# build directory and source root stripped).
cat >"$W/compare.py" <<'PY'
import json, os, re, sys
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
p = perpkt(sys.argv[1])
for t in sys.argv[2:]:
    o = tool(t)
    n = len(p); same = sum(p[a] == o.get(a) for a in p)
    inner = sum(o.get(a) and p[a][0] == o[a][0] for a in p)
    print(f"{t.split('/')[-1].split('.')[0]:9} {same}/{n} ({100*same/n:.2f}%) all frames, "
          f"{inner}/{n} ({100*inner/n:.2f}%) innermost frame")
    if os.environ.get("BENCH_DIFF"):
        for a in sorted(p):
            if p[a] != o.get(a): print(hex(a), p[a], o.get(a), file=sys.stderr)
PY
inl=$(jq '[.results[] | select(.inlines | length > 0)] | length' "$W/perpkt.json")
tp=$(echo "$t1 - $t0" | bc)
tpj=$(echo "$t0 - $tj" | bc)
tb=$(echo "$t2 - $t1" | bc)
te=$(echo "$t3 - $t2" | bc)
echo "vmlinux:        $VMLINUX"
echo "addresses:      $N distinct (seed $SEED), $inl with inlined frames"
printf 'perpkt resolve: %8.3f s   (text; --format json %.3f s)\n' "$tp" "$tpj"
printf 'addr2line -i:   %8.3f s   (perpkt %.1fx faster)\n' "$tb" "$(echo "$tb / $tp" | bc -l)"
printf 'eu-addr2line -i:%8.3f s   (perpkt %.1fx faster)\n' "$te" "$(echo "$te / $tp" | bc -l)"
echo "agreement (same function and file:line):"
python3 "$W/compare.py" "$W/perpkt.json" "$W/binutils.out" "$W/elfutils.out"
if [ -n "${BENCH_KEEP:-}" ]; then
	cp "$W"/*.out "$W"/*.json "$W/addrs" "$BENCH_KEEP"/
fi
