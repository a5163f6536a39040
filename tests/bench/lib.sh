# SPDX-License-Identifier: GPL-2.0-only
# Sourced by the benchmarks in tests/bench: the median of a column of
# numbers, the interval of a mean, a verdict that knows the noise, and
# one row of `make bench`'s summary table.

# median: numbers on stdin, one a line -> their median
median() {
	sort -g | awk '{ v[NR] = $1 }
		END { if (!NR) exit 1
		      print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# interval: numbers on stdin, one a line -> "MEAN LO HI": their mean and
# its 95% confidence interval (Student's t: the rounds are few). For
# paired rounds, give it the differences of the pairs.
interval() {
	awk '{ v[NR] = $1; s += $1 }
		END { if (!NR) exit 1
		      m = s / NR
		      if (NR < 2) { printf "%g %g %g\n", m, m, m; exit }
		      for (i = 1; i <= NR; i++) q += (v[i] - m) ^ 2
		      split("12.71 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 " \
			    "2.201 2.179 2.160 2.145 2.131 2.120 2.110 2.101 2.093 2.086", t, " ")
		      h = (NR - 1 <= 20 ? t[NR - 1] : 1.96) * sqrt(q / (NR - 1)) / sqrt(NR)
		      printf "%g %g %g\n", m, m - h, m + h }'
}

# hodges_lehmann FILE: numbers, one a line -> "EST LO HI": the
# Hodges-Lehmann estimate of their centre (the median of the Walsh
# averages) and its 95% interval from the Wilcoxon signed-rank test.
# Robust where a few values are far off (a host switching speed inside
# one pair) and distribution-free; a normal approximation to the
# ranks, so for tens of values or more.
hodges_lehmann() {
	python3 - "$1" <<'PY'
import math, sys
a = [float(x) for x in open(sys.argv[1]).read().split()]
n = len(a)
d = sorted((a[i] + a[j]) / 2 for i in range(n) for j in range(i, n))
k = n * (n + 1) / 4 - 1.96 * math.sqrt(n * (n + 1) * (2 * n + 1) / 24)
N = len(d)
k = min(max(int(math.floor(k)), 1), N)
est = d[N // 2] if N % 2 else (d[N // 2 - 1] + d[N // 2]) / 2
print("%g %g %g" % (est, d[k - 1], d[N - k]))
PY
}

# wider LO1 HI1 LO2 HI2: "LO HI", the wider of two intervals of one
# figure (within runs and across passes): a verdict stands on the one
# that admits more noise
wider() {
	awk -v a="$1" -v b="$2" -v c="$3" -v d="$4" 'BEGIN {
		if (d - c > b - a) print c, d; else print a, b }'
}

# at_most LO HI LIMIT: the verdict on "at most LIMIT" for a figure whose
# interval is LO..HI: met when all of it is at or below, MISSED only
# when all of it is above, else "same within noise" (a noisy machine
# cannot tell; not a failure)
at_most() {
	awk -v lo="$1" -v hi="$2" -v lim="$3" 'BEGIN {
		if (hi <= lim) print "met"
		else if (lo > lim) print "MISSED"
		else print "same within noise" }'
}

# bench_row MEASURE FIGURE TARGET VERDICT: a row for tests/bench/bench.sh's
# table (written to $BENCH_ROWS when the driver set it), and the same on
# stdout so that a benchmark run alone says it too. VERDICT is "met",
# "MISSED ..." or "skipped ...": a missed target is never rounded away.
bench_row() {
	printf '%s: %s (target %s): %s\n' "$1" "$2" "$3" "$4"
	if [ -n "${BENCH_ROWS:-}" ]; then
		printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$BENCH_ROWS"
	fi
}

# verdict OK: "met" when OK is 1, else "MISSED"
verdict() {
	if [ "$1" = 1 ]; then echo met; else echo MISSED; fi
}

# calc EXPR [FORMAT]: awk arithmetic, one line, %g unless FORMAT is given
calc() {
	awk "BEGIN { printf \"${2:-%g}\\n\", $1 }"
}

# window_rate RT1 W1 RT2 W2: units per second between two runs of one
# set-up, -d short and long ((RT2 - RT1) / (W2 - W1): the fixed costs
# cancel), or "-" when the two cannot give one (the longer run counted
# no more, or took no longer: noise larger than the difference). A rate
# is never negative.
window_rate() {
	awk -v r1="$1" -v w1="$2" -v r2="$3" -v w2="$4" 'BEGIN {
		if (w2 <= w1 || r2 <= r1) print "-"
		else printf "%.0f\n", (r2 - r1) / (w2 - w1) }'
}

# free_port: a UDP and TCP port on 127.0.0.1 that nothing holds now, so
# that a benchmark never talks to someone else's server
free_port() {
	python3 -c '
import socket
while True:
    t = socket.socket(); t.bind(("127.0.0.1", 0)); p = t.getsockname()[1]
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        u.bind(("127.0.0.1", p)); break
    except OSError:
        pass
print(p)'
}

# measured CMD...: run CMD (its stdout to /dev/null) and print "WALL_S
# MAXRSS_KIB": wall time, and the peak resident set of the largest process
# in its tree (getrusage of the reaped children, as GNU time reports it)
measured() {
	python3 -c '
import resource, subprocess, sys, time
t = time.perf_counter()
rc = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL)
w = time.perf_counter() - t
print("%.4f %d" % (w, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
sys.exit(rc)' "$@"
}

# exact_image NAME PERPKT: the cached Debian kernel image an exact
# benchmark boots ($PERPKT_LAB_KERNEL, fetched once), on stdout; exits
# 77 (skipped, saying why) when the QEMU plugin, QEMU or the kernel is
# missing. Call it as img=$(exact_image NAME "$PERPKT") || exit $?
exact_image() {
	local rel=${PERPKT_LAB_KERNEL:-6.1.0-57-cloud-amd64} root
	[ -r "$(dirname "$2")/perpkt-exact.so" ] ||
		{ echo "$1: the QEMU plugin was not built (make deps, then build)" >&2; return 77; }
	command -v qemu-system-x86_64 >/dev/null || { echo "$1: no qemu-system-x86_64" >&2; return 77; }
	root=$("$(dirname "${BASH_SOURCE[0]}")/../lab/fetch-kernel.sh" "$rel") || return 77
	echo "$root/boot/vmlinuz-$rel"
}
