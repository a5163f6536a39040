# SPDX-License-Identifier: GPL-2.0-only
# --anonymize on report, diff and table: no host name, address, MAC
# address, interface name or kernel command line of the profile is left
# in any format, and the same value gets the same placeholder.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
P=$SRCDIR/tests/fixtures/profiles

python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))
p["system"]["hostname"] = "db7.corp.example.org"
p["command"] = "perpkt record --peer 192.0.2.55:12865 -o /tmp/x.json"
c = p["conditions"]
c["net.path"] = "peer 192.0.2.55 (perpkt serve), from 198.51.100.7"
c["net.interfaces"] = "enp3s0f1 (ixgbe: irq 40 enp3s0f1-TxRx-0 -> cpus 0-1); lo (loopback, no IRQs); wg0 (virtual, no IRQs)"
c["net.rps_cpus.host"] = "enp3s0f1 rx-0 0, lo rx-0 0, wg0 rx-0 0"
c["net.mac"] = "enp3s0f1 52:54:00:ab:cd:ef, wg0 2001:db8:0:1::42"
c["kernel.cmdline"] = "root=/dev/sda1 ip=192.0.2.9::192.0.2.1 secret_token=hunter2"
c["cpu.note"] = "db7 has 2 CPUs"
json.dump(p, open(sys.argv[2], "w"))' "$P/sw-clock.json" "$TMP/a.json"
cp "$TMP/a.json" "$TMP/b.json"

secrets="db7.corp.example.org db7 192.0.2.55 198.51.100.7 enp3s0f1 wg0 52:54:00:ab:cd:ef 2001:db8:0:1::42 hunter2 root=/dev/sda1"
check() {
	for s in $secrets; do
		! grep -qwF -- "$s" "$TMP/out" "$TMP/err" || fail "$1: '$s' is still there: $(grep -wF -- "$s" "$TMP/out" | head -3)"
	done
}
for fmt in text json markdown csv html; do
	expect_exit 0 "$PERPKT" report -i "$TMP/a.json" --anonymize --all-conditions --format $fmt
	check "report --format $fmt"
done
expect_exit 0 "$PERPKT" report -i "$TMP/a.json" --anonymize --all-conditions --format json
# the same address is the same placeholder everywhere in one report
jq -e '.. | strings | select(test("peer addr1 \\(perpkt serve\\), from addr2"))' "$TMP/out" >/dev/null ||
	fail "net.path: $(grep -o 'peer [^"]*' "$TMP/out" | head -2)"
grep -q "if1 rx-0 0, lo rx-0 0, if2 rx-0 0" "$TMP/out" || fail "interfaces: $(grep -o 'rx-0[^"]*' "$TMP/out" | head -2)"
grep -q "host1 has 2 CPUs" "$TMP/out" && grep -q '"cmdline1"' "$TMP/out" &&
	grep -q "if1 mac1, if2 addr6-1" "$TMP/out" || fail "placeholders missing"
# and it is really changed: without --anonymize the values are there
expect_exit 0 "$PERPKT" report -i "$TMP/a.json" --all-conditions --format json
grep -q "192.0.2.55" "$TMP/out" || fail "the fixture lost its address"

for fmt in text json html; do
	expect_exit 0 "$PERPKT" diff "$TMP/a.json" "$TMP/b.json" --anonymize --format $fmt
	check "diff --format $fmt"
done
expect_exit 0 "$PERPKT" table "$TMP/a.json" "$TMP/b.json" --anonymize --format json
check "table"
echo ok
