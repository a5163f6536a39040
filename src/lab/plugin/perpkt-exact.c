// SPDX-License-Identifier: GPL-2.0-only
/*
 * perpkt-exact.so: a QEMU TCG plugin that counts, exactly, the guest
 * instructions executed inside perpkt's measurement window, per
 * instruction address and per vCPU.
 *
 * The guest perpkt marks the window's edges with an instruction no
 * compiler emits (src/workload/marks.h): on x86_64 an 8-byte NOP whose
 * displacement spells "PKT" and 1 (open) or 0 (close), on arm64 the
 * unallocated hints #0x71 (open) and #0x70 (close), which execute as
 * NOPs. When a translation block holding one is translated, the plugin
 * gives that instruction a callback that opens or closes the window.
 *
 * Every translation block gets an execution callback; while the window
 * is open it adds one to the block's counter of the vCPU running it.
 * Each vCPU writes only its own counter (MTTCG runs each vCPU on its own
 * thread), so no update is lost and none needs an atomic. A block is
 * counted when it is entered; TCG takes interrupts between blocks, so
 * only a fault inside a block (rare in kernel code) would count the
 * rest of it too.
 *
 * At exit the counts go to the file named by the argument out=PATH:
 * per vCPU the kernel and user totals (kernel: addresses with the top
 * bit set, as on x86_64 and arm64), then one line per kernel
 * instruction address and vCPU (lab/plugin/counts.h).
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

#include "lab/plugin/counts.h"
#include "workload/marks.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

/* One translation of a block: where its instructions are, and how often
 * each vCPU entered it inside the window. */
struct block {
	uint64_t *insn;          /* the instructions' addresses */
	uint32_t ninsns;
	int kernel;
	uint64_t count[];        /* per vCPU */
};

static struct {
	pthread_mutex_t lock;
	struct block **blocks;
	size_t nblocks, cap;
	int nvcpus;
	char *out;
	const char *target;
	volatile int open;       /* the window */
	uint64_t opens, closes;
	int failed;              /* out of memory: the counts are not whole */
} st = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void on_block(unsigned int vcpu, void *udata)
{
	struct block *b = udata;

	if (st.open && vcpu < (unsigned)st.nvcpus)
		b->count[vcpu]++;
}

static void on_mark(unsigned int vcpu, void *udata)
{
	if (udata) {
		st.open = 1;
		__atomic_add_fetch(&st.opens, 1, __ATOMIC_RELAXED);
	} else {
		st.open = 0;
		__atomic_add_fetch(&st.closes, 1, __ATOMIC_RELAXED);
	}
}

/* 1 open, 0 close, -1 not a mark */
static int mark_of(const struct qemu_plugin_insn *insn)
{
	const unsigned char *d = qemu_plugin_insn_data(insn);
	size_t n = qemu_plugin_insn_size(insn);

	if (n == sizeof(PERPKT_MARK_X86_OPEN) - 1) {
		if (!memcmp(d, PERPKT_MARK_X86_OPEN, n))
			return 1;
		if (!memcmp(d, PERPKT_MARK_X86_CLOSE, n))
			return 0;
	}
	if (n == 4) {
		uint32_t w = (uint32_t)d[0] | (uint32_t)d[1] << 8 |
			     (uint32_t)d[2] << 16 | (uint32_t)d[3] << 24;

		if (w == PERPKT_MARK_A64_OPEN)
			return 1;
		if (w == PERPKT_MARK_A64_CLOSE)
			return 0;
	}
	return -1;
}

static int keep(struct block *b)
{
	int ret = 0;

	pthread_mutex_lock(&st.lock);
	if (st.nblocks == st.cap) {
		size_t cap = st.cap ? st.cap * 2 : 65536;
		struct block **v = realloc(st.blocks, cap * sizeof(*v));

		if (!v)
			ret = -1;
		else {
			st.blocks = v;
			st.cap = cap;
		}
	}
	if (!ret)
		st.blocks[st.nblocks++] = b;
	pthread_mutex_unlock(&st.lock);
	return ret;
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;
	struct block *b = calloc(1, sizeof(*b) + sizeof(uint64_t) * (size_t)st.nvcpus);

	if (b)
		b->insn = malloc(sizeof(uint64_t) * (n ? n : 1));
	if (!b || !b->insn || keep(b)) {
		if (b)
			free(b->insn);
		free(b);
		st.failed = 1;
		return;
	}
	b->ninsns = (uint32_t)n;
	b->kernel = (int)(qemu_plugin_tb_vaddr(tb) >> 63);
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		int m = mark_of(insn);

		b->insn[i] = qemu_plugin_insn_vaddr(insn);
		if (m >= 0)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_mark,
							       QEMU_PLUGIN_CB_NO_REGS,
							       m ? (void *)1 : NULL);
	}
	qemu_plugin_register_vcpu_tb_exec_cb(tb, on_block, QEMU_PLUGIN_CB_NO_REGS, b);
}

static void on_exit_cb(qemu_plugin_id_t id, void *p)
{
	uint64_t kernel[PERPKT_EXACT_MAX_VCPUS] = { 0 }, user[PERPKT_EXACT_MAX_VCPUS] = { 0 };
	FILE *f = fopen(st.out, "w");
	size_t i, k;
	int v;

	if (!f) {
		qemu_plugin_outs("perpkt-exact: cannot write the counts file\n");
		return;
	}
	for (i = 0; i < st.nblocks; i++)
		for (v = 0; v < st.nvcpus; v++)
			(st.blocks[i]->kernel ? kernel : user)[v] +=
				st.blocks[i]->count[v] * st.blocks[i]->ninsns;
	fprintf(f, "perpkt-exact %d\ntarget %s\nvcpus %d\nmarks %" PRIu64 " %" PRIu64
		"\nblocks %zu\nwhole %d\n", PERPKT_EXACT_FILE_VERSION, st.target, st.nvcpus,
		st.opens, st.closes, st.nblocks, !st.failed);
	for (v = 0; v < st.nvcpus; v++)
		fprintf(f, "cpu %d %" PRIu64 " %" PRIu64 "\n", v, kernel[v], user[v]);
	for (i = 0; i < st.nblocks; i++) {
		const struct block *b = st.blocks[i];

		if (!b->kernel)
			continue;
		for (v = 0; v < st.nvcpus; v++) {
			if (!b->count[v])
				continue;
			for (k = 0; k < b->ninsns; k++)
				fprintf(f, "i %" PRIx64 " %d %" PRIu64 "\n", b->insn[k], v,
					b->count[v]);
		}
	}
	fprintf(f, "end\n");
	if (fclose(f))
		qemu_plugin_outs("perpkt-exact: the counts file is incomplete\n");
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++)
		if (!strncmp(argv[i], "out=", 4))
			st.out = strdup(argv[i] + 4);
	if (!st.out) {
		qemu_plugin_outs("perpkt-exact: give out=PATH for the counts\n");
		return -1;
	}
	if (!info->system_emulation) {
		qemu_plugin_outs("perpkt-exact: counts a whole system: run it under qemu-system-*\n");
		return -1;
	}
	st.nvcpus = info->system.max_vcpus;
	if (st.nvcpus < 1 || st.nvcpus > PERPKT_EXACT_MAX_VCPUS) {
		qemu_plugin_outs("perpkt-exact: too many vCPUs\n");
		return -1;
	}
	st.target = info->target_name;
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, on_exit_cb, NULL);
	return 0;
}
