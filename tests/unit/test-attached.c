// SPDX-License-Identifier: GPL-2.0-only
/* Counting tc filters and actions in `tc filter show` output. */
#include "system/attached.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

/* iproute2 6.1 on Linux 6.18: two u32 filters on clsact egress, one
 * with a mirred action; u32 shares its hash tables, so ingress lists
 * the same lines again. */
static const char egress[] =
	"filter protocol ip pref 1 u32 chain 0 \n"
	"filter protocol ip pref 1 u32 chain 0 fh 803: ht divisor 1 \n"
	"filter protocol ip pref 1 u32 chain 0 fh 803::800 order 2048 key ht 803 bkt 0 *flowid 1:1 not_in_hw \n"
	"  match 0a090909/ffffffff at 16\n"
	"filter protocol ip pref 1 u32 chain 0 fh 800: ht divisor 1 \n"
	"filter protocol ip pref 1 u32 chain 0 fh 800::800 order 2048 key ht 800 bkt 0 terminal flowid not_in_hw \n"
	"  match 0a090901/ffffffff at 16\n"
	"\taction order 1: mirred (Egress Redirect to device lo) stolen\n"
	"\tindex 1 ref 1 bind 1\n"
	"\n";
/* a classifier with handles (flower), two actions on one filter */
static const char flower[] =
	"filter protocol ip pref 49152 flower chain 0 \n"
	"filter protocol ip pref 49152 flower chain 0 handle 0x1 \n"
	"  eth_type ipv4\n"
	"\taction order 1: gact action pass\n"
	"\taction order 2: mirred (Egress Mirror to device lo) pipe\n";

static void test_count(void **state)
{
	size_t filters = 0, actions = 0;
	char *seen = NULL;

	(void)state;
	attached_tc_count(egress, &seen, &filters, &actions);
	assert_int_equal(filters, 2);
	assert_int_equal(actions, 1);
	/* the same lines under ingress: not counted twice */
	attached_tc_count(egress, &seen, &filters, &actions);
	assert_int_equal(filters, 2);
	assert_int_equal(actions, 1);
	attached_tc_count(flower, &seen, &filters, &actions);
	assert_int_equal(filters, 3);
	assert_int_equal(actions, 3);
	attached_tc_count("", &seen, &filters, &actions);
	assert_int_equal(filters, 3);
	free(seen);
}

/* iproute2 6.1's output with an XDP program on lo (generic mode) and
 * one on veth0, a tc bpf filter on ingress: each by name and tag */
static void test_bpf(void **state)
{
	static const char links[] =
		"1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 xdpgeneric qdisc noqueue state UNKNOWN mode DEFAULT group default qlen 1000\\    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00 promiscuity 0 gro_max_size 65536 \\    prog/xdp id 23 name xdp_pass_pp tag 614b434cd8324ecc jited load_time 41289130585717 created_by_uid 0 \n"
		"2: lo2: <BROADCAST> mtu 1500 qdisc noop\\    link/ether 02:00:00:00:00:01\n"
		"5: veth0@if4: <BROADCAST,UP> mtu 1500 xdp qdisc noqueue\\    link/ether 02:00:00:00:00:02 \\    prog/xdp id 24 tag 0123456789abcdef jited \n";
	static const char filters[] =
		"filter protocol all pref 49152 bpf chain 0 \n"
		"filter protocol all pref 49152 bpf chain 0 handle 0x1 p.o:[tc] direct-action not_in_hw id 27 name cls_pp tag 59f4a931744dcdc6 jited \n"
		"filter protocol ip pref 1 u32 chain 0 fh 800::800 order 2048 key ht 800 bkt 0 \n";
	char out[256];

	(void)state;
	out[0] = '\0';
	attached_xdp(links, "lo", out, sizeof(out));
	assert_string_equal(out, "xdpgeneric xdp_pass_pp tag 614b434c");
	out[0] = '\0';
	attached_xdp(links, "lo2", out, sizeof(out));
	assert_string_equal(out, "");
	attached_xdp(links, "veth0", out, sizeof(out));
	assert_string_equal(out, "xdp id 24 tag 01234567");
	out[0] = '\0';
	attached_tc_bpf(filters, "ingress", out, sizeof(out));
	assert_string_equal(out, "tc ingress bpf cls_pp tag 59f4a931");
	out[0] = '\0';
	attached_tc_bpf(filters, NULL, out, sizeof(out));
	assert_string_equal(out, "tc bpf cls_pp tag 59f4a931");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_count),
		cmocka_unit_test(test_bpf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
