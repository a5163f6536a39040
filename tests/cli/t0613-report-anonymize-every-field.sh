# SPDX-License-Identifier: GPL-2.0-only
# --anonymize covers every string field of a profile and of its remote
# side: a marker (an address of its own) is planted in each, plus user
# names, paths, host names and --key=VALUE tokens in the command lines
# and conditions, and none of them is left in any format of report,
# diff or table.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
P=$SRCDIR/tests/fixtures/profiles

python3 - "$P/sw-clock.json" "$TMP/a.json" "$TMP/markers" <<'EOF'
import copy, json, sys
p = json.load(open(sys.argv[1]))
# the sections sw-clock.json leaves out, so that every kind of field is there
c = p["counters"]
c["irqs"] = [{"kind": "irq", "name": "40", "desc": "enp3s0f1-TxRx-0", "cpu": 0, "count": 10}]
c["counts"] = [{"name": "cpu-clock", "cpu": 0, "value": 1, "raw": 1,
                "enabled_ns": 1, "running_ns": 1}]
c["missing_events"] = [{"name": "instructions", "reason": "no PMU here"}]
c["clock"] = {"mhz": 2000.0, "source": "calibrated"}
p["modules"] = [{"name": "veth", "sections": {".text": "0xffffffffc0000000"}}]
p["remote_missing"] = "not asked"
p["workload"]["unit"] = {"spec": "packets:enp3s0f1", "name": "packet",
                         "source": "/sys/class/net/enp3s0f1/statistics/rx_packets"}
p["remote"] = copy.deepcopy(p)
del p["remote"]["remote_missing"]
p["remote"]["conditions"]["peer.client"] = \
    "user bob on host client7 from 203.0.113.10, authenticated (key 0a1b2c3d)"
# fields whose values are a vocabulary the reader checks (or a single
# letter), and numbers written in hex: a marker there is refused on
# load, not leaked
VOCAB = {"format", "mode", "role", "type", "kind"}
import re
HEX = re.compile("^0x[0-9a-f]+$")
markers = []
def plant(o, key=None):
    if isinstance(o, dict):
        for k in list(o):
            if isinstance(o[k], str) and k not in VOCAB and not HEX.match(o[k]):
                m = "192.0.2.%d" % (len(markers) + 1)
                markers.append(m)
                o[k] = o[k] + " " + m
            else:
                plant(o[k], k)
    elif isinstance(o, list):
        for x in o:
            plant(x)
plant(p)
# words of a vocabulary the reader checks (units, event names): the
# profile is refused with a marker there, so they keep their own words
def unplant(o, k):
    v, m = o[k].rsplit(" ", 1)
    markers.remove(m)
    o[k] = v
for side in (p, p["remote"]):
    unplant(side["workload"]["unit"], "name")
    for e in side["counters"]["events"]:
        for k in ("name", "requested", "pmu", "unit"):
            unplant(e, k)
for side in (p, p["remote"]):
    side["workload"]["workload_command"] = ("sudo -u alice /home/alice/bin/loadgen "
        "--token=ABCDEF123 --target 203.0.113.9 db9.corp.example.net ~erin/run")
    side["command"] = ("perpkt record -o /home/alice/prof/run.json --peer "
        "client7.example.com:12865 --per=udp-datagrams -- ssh carol@jump1 loadgen")
    side["system"]["kernel_version"] = "#1 SMP built by dave@buildhost9"
json.dump(p, open(sys.argv[2], "w"))
open(sys.argv[3], "w").write("\n".join(markers + [
    "alice", "ABCDEF123", "203.0.113.9", "203.0.113.10", "db9.corp.example.net",
    "client7.example.com", "client7", "bob", "carol", "jump1", "dave",
    "buildhost9", "erin", "/home/alice", "udp-datagrams", "0a1b2c3d",
    "enp3s0f1"]) + "\n")
print(len(markers), "string fields marked")
EOF
[ "$(wc -l <"$TMP/markers")" -gt 60 ] || fail "too few fields marked: $(wc -l <"$TMP/markers")"
cp "$TMP/a.json" "$TMP/b.json"

check() {
	local left
	left=$(grep -owF -f "$TMP/markers" "$TMP/out" "$TMP/err" | sort -u | head -5)
	[ -z "$left" ] || fail "$1: still there: $left"
}
for side in local remote; do
	for fmt in text json markdown csv html folded; do
		expect_exit 0 "$PERPKT" report -i "$TMP/a.json" --anonymize --all-conditions \
			--side $side --format $fmt
		check "report --side $side --format $fmt"
	done
done
for fmt in text json markdown csv html folded; do
	expect_exit 0 "$PERPKT" diff "$TMP/a.json" "$TMP/b.json" --anonymize --format $fmt
	check "diff --format $fmt"
done
for fmt in text json markdown csv; do
	expect_exit 0 "$PERPKT" table "$TMP/a.json" "$TMP/b.json" --anonymize --format $fmt
	check "table --format $fmt"
done
# what stays readable: the placeholders, the option names, system paths
expect_exit 0 "$PERPKT" report -i "$TMP/a.json" --anonymize --all-conditions --format json
grep -Eq -- "sudo -u user[0-9]+ path[0-9]+ --token=value[0-9]+ --target addr[0-9]+ host[0-9]+ path[0-9]+" "$TMP/out" ||
	fail "workload command: $(grep -o '"workload_command[^,]*' "$TMP/out" | head -2)"
grep -Eq "user[0-9]+ on host host[0-9]+ from addr[0-9]+, authenticated \(key value[0-9]+\)" "$TMP/out" || fail "peer.client: $(grep -o 'user[^"]*on host[^"]*' "$TMP/out" | head -2)"
# and without --anonymize the markers are there: the check can fail
expect_exit 0 "$PERPKT" report -i "$TMP/a.json" --all-conditions --format json
grep -qwF "alice" "$TMP/out" && grep -qwF "203.0.113.9" "$TMP/out" || fail "the fixture lost its markers"
echo ok
