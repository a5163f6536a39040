// SPDX-License-Identifier: GPL-2.0-only
/*
 * Bucket rules: the built-in defaults on the functions of a UDP loopback
 * round trip, path rules (for the DWARF phase), custom and malformed
 * rules files.
 */
#include "symbolize/symbolize.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "symbolize/symbolize-internal.h"

/* name, bucket, rule (NULL: do not check the rule) */
static const char *const known[][3] = {
	{ "udp_sendmsg", "udp", "udp func udp*" },
	{ "udp_recvmsg", "udp", "udp func udp*" },
	{ "__udp4_lib_rcv", "udp", "udp func __udp*" },
	{ "__skb_recv_udp", "udp", NULL },
	{ "ip4_datagram_connect", "udp", NULL },
	{ "ip_output", "ip", "ip func ip_*" },
	{ "ip_finish_output2", "ip", NULL },
	{ "inet_recvmsg", "ip", NULL },
	{ "fib_table_lookup", "ip", NULL },
	{ "__dev_queue_xmit", "net-core", NULL },
	{ "loopback_xmit", "driver", NULL },
	{ "veth_xmit", "driver", NULL },
	{ "net_rx_action", "net-core", NULL },
	{ "__netif_receive_skb_core.constprop.0", "net-core", NULL },
	{ "process_backlog", "net-core", NULL },
	{ "enqueue_to_backlog", "net-core", NULL },
	{ "sock_def_readable", "net-core", NULL },
	{ "skb_release_data", "net-core", NULL },
	{ "kfree_skb_list_reason", "net-core", NULL },
	{ "skb_copy_datagram_iter", "copy", "copy func skb_copy_datagram*" },
	{ "_copy_to_iter", "copy", NULL },
	{ "csum_partial", "copy", NULL },
	{ "memcpy", "copy", NULL },
	{ "schedule", "scheduler", "scheduler func schedule" },
	{ "__schedule", "scheduler", NULL },
	{ "try_to_wake_up", "scheduler", NULL },
	{ "enqueue_task_fair", "scheduler", NULL },
	{ "finish_task_switch.isra.0", "scheduler", NULL },
	{ "__update_load_avg_se", "scheduler", NULL },
	{ "do_syscall_64", "syscall", "syscall func do_syscall_64" },
	{ "entry_SYSCALL_64", "syscall", NULL },
	{ "__x64_sys_sendto", "syscall", NULL },
	{ "__sys_sendto", "socket", NULL },
	{ "__sys_recvfrom", "socket", NULL },
	{ "sock_recvmsg", "socket", "socket func sock_*" },
	{ "security_socket_recvmsg", "socket", NULL },
	{ "_raw_spin_unlock_irqrestore", "irq-enable",
	  "irq-enable pass _raw_spin_unlock_irq*" },
	{ "_raw_spin_unlock", "locking", "locking func _raw_spin_*" },
	{ "pvm_irq_enable", "irq-enable", "irq-enable pass pvm_irq_enable" },
	{ "__rcu_read_unlock", "locking", NULL },
	{ "nf_hook_slow", "netfilter", NULL },
	{ "ipt_do_table", "netfilter", NULL },
	{ "hrtimer_interrupt", "timekeeping", NULL },
	{ "sched_clock_cpu", "timekeeping", NULL },
	{ "ktime_get", "timekeeping", NULL },
	{ "__sysvec_apic_timer_interrupt", "irq", NULL },
	{ "handle_softirqs", "irq", NULL },
	{ "__local_bh_enable_ip", "irq", NULL },
	{ "kmem_cache_alloc_node_noprof", "memory", NULL },
	{ "kfree", "memory", NULL },
	{ "do_idle", "idle", NULL },
	{ "pv_native_safe_halt", "idle", NULL },
	{ "perf_swevent_hrtimer", "profiler", NULL },
	{ "tcp_sendmsg", "tcp", NULL },
	/* tc: classifiers, actions, qdiscs; the default qdisc stays net-core */
	{ "tc_run", "tc", "tc func tc_run" },
	{ "tcf_classify", "tc", NULL },
	{ "__tcf_classify", "tc", NULL },
	{ "u32_classify", "tc", "tc func *_classify" },
	{ "cls_bpf_classify", "tc", NULL },
	{ "tcf_action_exec", "tc", NULL },
	{ "tcf_mirred_act", "tc", NULL },
	{ "htb_enqueue", "tc", NULL },
	{ "pfifo_fast_enqueue", "net-core", NULL },
	{ "sch_direct_xmit", "net-core", NULL },
	{ "__qdisc_run", "net-core", NULL },
	{ "u32_mt", "other", NULL },
	/* packet taps; the printk ring buffer's prb_* is not one */
	{ "tpacket_rcv", "tap", "tap func tpacket_*" },
	{ "packet_rcv", "tap", NULL },
	{ "packet_rcv_spkt", "tap", NULL },
	{ "__packet_rcv_has_room", "tap", NULL },
	{ "prb_retire_current_block", "tap", NULL },
	{ "dev_queue_xmit_nit", "tap", "tap func dev_queue_xmit_nit" },
	{ "prb_reserve", "other", NULL },
	/* a JIT-ed BPF program by its kallsyms name; the kernel's runners not */
	{ "bpf_prog_6deef7357e7b4530_sd_fw_ingress", "bpf", NULL },
	{ "bpf_prog_00000000deadbeef", "bpf", NULL },
	{ "bpf_prog_run_generic_xdp", "net-core", NULL },
	{ "bpf_prog_run_pin_on_cpu", "net-core", NULL },
	/* conntrack's hashing; siphash itself cannot tell its caller */
	{ "hash_conntrack_raw", "netfilter", NULL },
	{ "__siphash_unaligned", "hash", "hash caller __siphash_*" },
	{ "siphash_3u32", "hash", NULL },
	{ "no_such_subsystem_fn", "other", "(unclassified)" },
};
#define NKNOWN (sizeof(known) / sizeof(known[0]))

/* One 16-byte symbol per name in `known`, at 0x1000 + 16 * i. */
static int setup_known(void **state)
{
	struct sym_entry e[NKNOWN];
	struct symbolizer *s;
	size_t i;

	for (i = 0; i < NKNOWN; i++) {
		e[i].addr = 0x1000 + 16 * i;
		e[i].size = 16;
		e[i].type = 't';
		e[i].name = known[i][0];
		e[i].module = NULL;
	}
	if (symbolizer_open_entries(&s, e, NKNOWN, NULL))
		return -1;
	*state = s;
	return 0;
}

static int teardown(void **state)
{
	symbolizer_close(*state);
	return 0;
}

static const char *bucket_of(struct symbolizer *s, size_t i,
			     const char **rule)
{
	struct sym_result r;

	assert_int_equal(symbolizer_resolve(s, 0x1000 + 16 * i + 3, &r), 0);
	assert_string_equal(r.name, known[i][0]);
	if (rule)
		*rule = r.rule;
	return r.bucket;
}

static void test_defaults(void **state)
{
	struct symbolizer *s = *state;
	const char *rule;
	size_t i;

	for (i = 0; i < NKNOWN; i++) {
		const char *b = bucket_of(s, i, &rule);

		if (strcmp(b, known[i][1]))
			fail_msg("'%s' went to '%s' by '%s', want '%s'",
				 known[i][0], b, rule, known[i][1]);
		if (known[i][2])
			assert_string_equal(rule, known[i][2]);
	}
	/* Second lookup comes from the per-symbol cache: same answer. */
	assert_string_equal(bucket_of(s, 0, &rule), "udp");
	assert_string_equal(rule, "udp func udp*");
}

static void test_default_text(void **state)
{
	const char *t = symbolizer_default_buckets();

	assert_non_null(t);
	assert_non_null(strstr(t, "\nudp func udp*\n"));
	assert_non_null(strstr(t, "\nscheduler path kernel/sched/\n"));
}

/* Path rules: only the DWARF phase passes a file, via buckets_match. */
static void test_path_rules(void **state)
{
	static const char *const cases[][3] = {
		{ "net/ipv4/udp.c", "some_fn", "udp" },
		{ "net/ipv4/udp_offload.c", "some_fn", "udp" },
		{ "net/ipv4/ip_output.c", "some_fn", "ip" },
		{ "net/ipv4/netfilter/iptable_filter.c", "some_fn", "netfilter" },
		{ "kernel/sched/fair.c", "some_fn", "scheduler" },
		{ "kernel/sched/idle.c", "some_fn", "idle" },
		{ "net/core/dev.c", "some_fn", "net-core" },
		{ "mm/slub.c", "some_fn", "memory" },
		{ "net/sched/cls_u32.c", "some_fn", "tc" },
		{ "net/sched/act_gact.c", "some_fn", "tc" },
		{ "net/sched/sch_htb.c", "some_fn", "tc" },
		{ "net/sched/sch_generic.c", "some_fn", "net-core" },
		{ "net/packet/af_packet.c", "some_fn", "tap" },
		{ "net/core/dev.c", "dev_queue_xmit_nit", "tap" },
		/* Names listed above the path rules still win. */
		{ "net/socket.c", "__x64_sys_sendto", "syscall" },
		{ "net/core/datagram.c", "skb_copy_datagram_iter", "copy" },
		/* No path rule: fall through to the name rules. */
		{ "fs/unknown.c", "udp_sendmsg", "udp" },
		{ "fs/unknown.c", "no_such_fn", "other" },
		/* No file (phase 1): path rules are skipped. */
		{ NULL, "some_fn", "other" },
	};
	struct bucket_rules r;
	size_t i, k;

	assert_int_equal(buckets_parse(&r, symbolizer_default_buckets(),
				       "built-in", NULL), 0);
	assert_true(r.n > 100);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *b;

		k = buckets_match(&r, cases[i][0], cases[i][1]);
		b = k < r.n ? r.v[k].bucket : "other";
		if (strcmp(b, cases[i][2]))
			fail_msg("'%s' in '%s' went to '%s', want '%s'",
				 cases[i][1], cases[i][0] ? cases[i][0] : "?",
				 b, cases[i][2]);
	}
	k = buckets_match(&r, "net/ipv4/udp.c", "x");
	assert_true(k < r.n);
	assert_string_equal(r.v[k].text, "udp path net/ipv4/udp");
	buckets_free(&r);
}

/* Write `text` to a fresh file; the caller unlinks `path`. */
static void write_rules(char *path, const char *text)
{
	int fd;

	strcpy(path, "/tmp/perpkt-test-buckets-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	assert_int_equal(close(fd), 0);
}

static void test_custom_rules(void **state)
{
	struct symbolizer *s = *state;
	char path[64];
	const char *rule;
	size_t udp = 0, sched = 1, ip = 5;

	assert_string_equal(known[udp][0], "udp_sendmsg");
	assert_string_equal(known[ip][0], "ip_output");
	/* Fill the cache with the defaults first: loading must reset it. */
	assert_string_equal(bucket_of(s, udp, NULL), "udp");
	assert_string_equal(bucket_of(s, ip, NULL), "ip");

	write_rules(path, "# my rules\n"
			  "\n"
			  "mine   func\tudp_*   # trailing comment\n"
			  "   \n"
			  "wake func *_recv*\n"
			  "mine func never\n");
	assert_int_equal(symbolizer_load_buckets(s, path, NULL), 0);
	unlink(path);

	assert_string_equal(bucket_of(s, udp, &rule), "mine");
	assert_string_equal(rule, "mine func udp_*");
	/* First match wins: udp_recvmsg matches both rules. */
	assert_string_equal(known[sched][0], "udp_recvmsg");
	assert_string_equal(bucket_of(s, sched, &rule), "mine");
	/* Defaults are gone entirely. */
	assert_string_equal(bucket_of(s, ip, &rule), "other");
	assert_string_equal(rule, "(unclassified)");
	assert_string_equal(known[3][0], "__skb_recv_udp");
	assert_string_equal(bucket_of(s, 3, &rule), "wake");
	assert_string_equal(rule, "wake func *_recv*");
}

/*
 * Run load_buckets(path) with stderr captured: it must fail with the
 * reason in err, and print nothing (the library leaves that to the
 * command).
 */
static void load_fails(struct symbolizer *s, const char *path,
		       struct sym_error *err)
{
	char errpath[64], msg[64];
	int saved, fd;

	strcpy(errpath, "/tmp/perpkt-test-stderr-XXXXXX");
	fd = mkstemp(errpath);
	assert_true(fd >= 0);
	fflush(stderr);
	saved = dup(2);
	dup2(fd, 2);
	err->msg[0] = '\0';
	assert_int_equal(symbolizer_load_buckets(s, path, err), -1);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	assert_int_equal(pread(fd, msg, sizeof(msg), 0), 0);
	close(fd);
	unlink(errpath);
	assert_true(err->msg[0] != '\0');
}

/* Load `text` as rules; the error message must name file:line. */
static void expect_bad(struct symbolizer *s, const char *text, int line,
		       const char *what)
{
	char path[64], where[96];
	struct sym_error err;

	write_rules(path, text);
	load_fails(s, path, &err);
	unlink(path);
	snprintf(where, sizeof(where), "'%s:%d'", path, line);
	if (!strstr(err.msg, where) || !strstr(err.msg, what))
		fail_msg("message '%s' lacks %s or '%s'", err.msg, where, what);
}

/* Not a rules file: refused at once, not read until memory runs out. */
static void test_bounded_rules(void **state)
{
	struct symbolizer *s = *state;
	struct sym_error err;
	char path[64], *text;
	const char *rule;

	load_fails(s, "/dev/zero", &err);
	assert_non_null(strstr(err.msg, "'/dev/zero' is not text"));
	text = malloc(BUCKETS_MAX_LINE + 32);
	assert_non_null(text);
	strcpy(text, "udp func udp*\nx func ");
	memset(text + strlen(text), 'a', BUCKETS_MAX_LINE);
	text[strlen("udp func udp*\nx func ") + BUCKETS_MAX_LINE] = '\0';
	write_rules(path, text);
	free(text);
	load_fails(s, path, &err);
	unlink(path);
	assert_non_null(strstr(err.msg, "line 2 of bucket rules"));
	assert_non_null(strstr(err.msg, "is over 4096 bytes"));
	/* The rules in force stay. */
	assert_string_equal(bucket_of(s, 0, &rule), "udp");
}

static void test_malformed_rules(void **state)
{
	struct symbolizer *s = *state;
	const char *rule;

	expect_bad(s, "udp func udp*\nudp func\n", 2, "want '<bucket>");
	expect_bad(s, "# c\n\nudp fun udp*\n", 3, "unknown kind 'fun'");
	expect_bad(s, "udp func udp* extra\n", 1, "more than three");
	expect_bad(s, "a func x\nb func y\nc func [abc\n", 3, "unclosed '['");
	expect_bad(s, "udp path net/*\n", 1, "literal prefixes");
	expect_bad(s, "u/p func udp*\n", 1, "bad bucket name 'u/p'");
	/* A failed load keeps the rules in force. */
	assert_string_equal(bucket_of(s, 0, &rule), "udp");
	assert_string_equal(rule, "udp func udp*");
	assert_int_equal(symbolizer_load_buckets(s, "/nonexistent/rules", NULL), -1);
	assert_string_equal(bucket_of(s, 0, NULL), "udp");
	test_bounded_rules(state);
	assert_string_equal(bucket_of(s, 0, NULL), "udp");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_defaults, setup_known,
						teardown),
		cmocka_unit_test(test_default_text),
		cmocka_unit_test(test_path_rules),
		cmocka_unit_test_setup_teardown(test_custom_rules, setup_known,
						teardown),
		cmocka_unit_test_setup_teardown(test_malformed_rules,
						setup_known, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
