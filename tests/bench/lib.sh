# SPDX-License-Identifier: GPL-2.0-only
# Sourced by the benchmarks in tests/bench: the median of a column of
# numbers, and one row of `make bench`'s summary table.

# median: numbers on stdin, one a line -> their median
median() {
	sort -g | awk '{ v[NR] = $1 }
		END { if (!NR) exit 1
		      print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
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
