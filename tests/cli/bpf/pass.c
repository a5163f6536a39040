// SPDX-License-Identifier: GPL-2.0-only
/*
 * Two BPF programs that let every packet pass, for t0132: one for XDP,
 * one for tc's bpf classifier. Built by the test with
 *   clang -O2 -target bpf -I/usr/include/$(uname -m)-linux-gnu -c pass.c
 */
#include <linux/bpf.h>

#define SEC(n) __attribute__((section(n), used))

SEC("xdp") int perpkt_xdp_pass(struct xdp_md *ctx)
{
	return XDP_PASS;
}

SEC("tc") int perpkt_tc_pass(struct __sk_buff *skb)
{
	return 0;  /* TC_ACT_OK */
}

char _license[] SEC("license") = "GPL";
