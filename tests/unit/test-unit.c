// SPDX-License-Identifier: GPL-2.0-only
/* --per units: parsing, /proc/net/snmp and /proc/interrupts lookups. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "system/unit.h"

static const char snmp[] =
	"Ip: Forwarding DefaultTTL InReceives\n"
	"Ip: 2 64 6868892\n"
	"Tcp: RtoAlgorithm RtoMin InSegs OutSegs\n"
	"Tcp: 1 200 298226 290703\n"
	"Udp: InDatagrams NoPorts InErrors OutDatagrams\n"
	"Udp: 1000 3 0 998\n"
	"UdpLite: InDatagrams NoPorts InErrors OutDatagrams\n"
	"UdpLite: 7 0 0 8\n";

static const char irqs[] =
	"           CPU0       CPU1       \n"
	" 24:        100        200   PCI-MSI 49152-edge      eth1-TxRx-0\n"
	" 25:         10         20   PCI-MSI 49153-edge      eth1-TxRx-1\n"
	" 26:          1          2   PCI-MSI 49154-edge      eth10\n"
	"LOC:       1000       2000   Local timer interrupts\n"
	"ERR:          0\n";

static void test_parse(void **state)
{
	struct unit u;

	(void)state;
	assert_int_equal(unit_parse("rt", &u), 0);
	assert_int_equal(u.kind, UNIT_RT);
	assert_string_equal(u.name, "round trip");
	assert_int_equal(unit_parse("udp-datagrams", &u), 0);
	assert_int_equal(u.dir, UNIT_IN);
	assert_string_equal(u.spec, "udp-datagrams:in");
	assert_string_equal(u.name, "udp-datagram");
	assert_int_equal(unit_parse("tcp-segments:both", &u), 0);
	assert_int_equal(u.dir, UNIT_BOTH);
	assert_non_null(strstr(u.source, "InSegs + OutSegs"));
	assert_int_equal(unit_parse("rx-packets:veth0", &u), 0);
	assert_int_equal(u.kind, UNIT_RX_PACKETS);
	assert_string_equal(u.arg, "veth0");
	assert_string_equal(u.name, "packet");
	assert_int_equal(unit_parse("count:200000", &u), 0);
	assert_int_equal(u.fixed, 200000);
	assert_int_equal(unit_is_counter(&u), 0);
	assert_int_equal(unit_parse("irqs:eth1", &u), 0);
	assert_int_equal(unit_is_counter(&u), 1);
	assert_int_equal(unit_parse("udp-datagramsx", &u), -1);
	assert_int_equal(unit_parse("udp-datagrams:up", &u), -1);
	assert_int_equal(unit_parse("packets:../../etc", &u), -1);
	assert_int_equal(unit_parse("packets:", &u), -1);
	assert_int_equal(unit_parse("count:0", &u), -1);
	assert_int_equal(unit_parse("irqs:", &u), -1);
	assert_int_equal(unit_parse("packets", &u), -1);
}

static void test_snmp(void **state)
{
	uint64_t v = 0;

	(void)state;
	assert_int_equal(unit_snmp_value(snmp, "Udp", "InDatagrams", &v), 0);
	assert_int_equal(v, 1000);
	assert_int_equal(unit_snmp_value(snmp, "Udp", "OutDatagrams", &v), 0);
	assert_int_equal(v, 998);
	/* "Udp" is not "UdpLite" */
	assert_int_equal(unit_snmp_value(snmp, "UdpLite", "OutDatagrams", &v), 0);
	assert_int_equal(v, 8);
	assert_int_equal(unit_snmp_value(snmp, "Tcp", "OutSegs", &v), 0);
	assert_int_equal(v, 290703);
	assert_int_equal(unit_snmp_value(snmp, "Udp", "NoSuch", &v), -1);
	assert_int_equal(unit_snmp_value(snmp, "Sctp", "InPkts", &v), -1);
	assert_int_equal(unit_snmp_value("Udp: InDatagrams\n", "Udp", "InDatagrams", &v), -1);
}

static void test_irqs(void **state)
{
	uint64_t v = 0;

	(void)state;
	/* a device's lines, every queue, not eth10 */
	assert_int_equal(unit_irq_sum(irqs, "eth1", &v), 0);
	assert_int_equal(v, 330);
	assert_int_equal(unit_irq_sum(irqs, "24", &v), 0);
	assert_int_equal(v, 300);
	assert_int_equal(unit_irq_sum(irqs, "LOC", &v), 0);
	assert_int_equal(v, 3000);
	assert_int_equal(unit_irq_sum(irqs, "eth10", &v), 0);
	assert_int_equal(v, 3);
	assert_int_equal(unit_irq_sum(irqs, "eth", &v), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_snmp),
		cmocka_unit_test(test_irqs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
