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
 * Each vCPU follows the blocks it runs (lab/plugin/callpath.h): a block
 * entered by a call counts a call of its address; with paths=1 every
 * execution is also counted on the call path it ran on (a shadow stack
 * per vCPU, a tree of paths per vCPU, so no lock either).
 *
 * With cache=SPEC (lab/plugin/cachemodel.h) each vCPU also has a cache
 * model of its own: a block's instruction lines are fetched when it is
 * entered (a line once however many of its instructions it holds: the
 * second fetch of a line just used always hits and changes nothing),
 * then its data accesses in order, by guest-physical address (an
 * instruction by its virtual one: QEMU 7.2 gives no physical address
 * for it). The model runs from boot, so the caches are warm when the
 * window opens; misses are counted inside the window only, per kernel
 * instruction (its fetch's or its access's) and vCPU.
 *
 * At exit the counts go to the file named by the argument out=PATH:
 * per vCPU the kernel and user totals (kernel: addresses with the top
 * bit set, as on x86_64 and arm64), then one line per kernel
 * instruction address and vCPU, the calls, and the paths
 * (lab/plugin/counts.h).
 */
#include <inttypes.h>
#include <stddef.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

#include "lab/plugin/cachemodel.h"
#include "lab/plugin/callpath.h"
#include "lab/plugin/counts.h"
#include "workload/marks.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

/* One translation of a block: where its instructions are, and how often
 * each vCPU entered it inside the window. */
struct block {
	uint64_t *insn;          /* the instructions' addresses */
	uint32_t ninsns;
	int kernel;
	struct callpath_block cp;
	/* cache=: the lines its instructions are in, in order, each with
	 * the instruction that first reaches it; a kernel block's misses
	 * per (instruction, vCPU, level): miss[(k * nvcpus + v) * 3 + l] */
	struct fetch { uint64_t line; uint32_t insn; } *fetch;
	uint32_t nfetch;
	uint64_t *miss;
	/* per vCPU: entries, then entries by a call, then jumps taken
	 * to the target of a jump or branch ending it */
	uint64_t count[];
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
	int paths;               /* paths=1: counts per call path */
	struct callpath_vcpu *cpv;  /* per vCPU */
	int cache;               /* cache=SPEC: a cache model per vCPU */
	struct cachemodel_geometry geo;
	struct cachemodel *cm;   /* per vCPU */
	uint64_t (*umiss)[CACHE_NLEVELS];  /* per vCPU: user space's misses */
} st = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* Misses at instruction k of b (NULL: user space) on vcpu, in the window */
static void add_misses(struct block *b, uint32_t k, unsigned vcpu, int l1,
		       unsigned n1, unsigned n2)
{
	uint64_t *m = b ? &b->miss[((size_t)k * st.nvcpus + vcpu) * CACHE_NLEVELS] :
		      st.umiss[vcpu];

	m[l1] += n1;
	m[CACHE_L2] += n2;
}

static void fetch_lines(struct block *b, unsigned vcpu)
{
	uint32_t i;

	for (i = 0; i < b->nfetch; i++) {
		unsigned l1 = 0, l2 = 0;

		cachemodel_fetch(&st.cm[vcpu], b->fetch[i].line, &l1, &l2);
		if (l1 && st.open)
			add_misses(b->kernel ? b : NULL, b->fetch[i].insn, vcpu, CACHE_L1I,
				   l1, l2);
	}
}

/* cache=: an instruction's load or store; udata its block's misses for
 * it (NULL for user space) */
static void on_data(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr,
		    void *udata)
{
	struct qemu_plugin_hwaddr *hw = qemu_plugin_get_hwaddr(info, vaddr);
	unsigned l1 = 0, l2 = 0;
	uint64_t *m = udata;

	if (vcpu >= (unsigned)st.nvcpus || (hw && qemu_plugin_hwaddr_is_io(hw)))
		return;  /* a device's registers are not cached */
	cachemodel_data(&st.cm[vcpu], hw ? qemu_plugin_hwaddr_phys_addr(hw) : vaddr,
			1u << qemu_plugin_mem_size_shift(info), &l1, &l2);
	if (!l1 || !st.open)
		return;
	if (!m)
		m = st.umiss[vcpu];
	else
		m += (size_t)vcpu * CACHE_NLEVELS;
	m[CACHE_L1D] += l1;
	m[CACHE_L2] += l2;
}

static void on_block(unsigned int vcpu, void *udata)
{
	struct block *b = udata;
	const struct callpath_block *p;
	struct callpath_vcpu *c;

	if (vcpu >= (unsigned)st.nvcpus)
		return;
	if (st.cache)
		fetch_lines(b, vcpu);
	c = &st.cpv[vcpu];
	if (!st.open) {
		if (c->prev)
			callpath_forget(c);
		return;
	}
	b->count[vcpu]++;
	p = c->prev;
	if (p && p->target == b->cp.start && (p->kind == CP_JUMP || p->kind == CP_BRANCH))
		((struct block *)((char *)p - offsetof(struct block, cp)))->count[2 * st.nvcpus + vcpu]++;
	if (callpath_step(c, &b->cp))
		b->count[st.nvcpus + vcpu]++;
}

/* __switch_to_asm saves the stack pointer of the task switched out */
static void on_switch(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr,
		      void *udata)
{
	if (st.open && vcpu < (unsigned)st.nvcpus)
		callpath_park(&st.cpv[vcpu], vaddr);
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
	if (!ret) {
		b->cp.id = (uint32_t)st.nblocks;
		st.blocks[st.nblocks++] = b;
	}
	pthread_mutex_unlock(&st.lock);
	return ret;
}

/* cache=: b's lines, and where its misses go; 0, or -1 out of memory */
static int cache_block(struct block *b, struct qemu_plugin_tb *tb)
{
	size_t n = b->ninsns, i;
	uint64_t shift = (uint64_t)__builtin_ctz(st.geo.line);

	/* an instruction spans two lines at most */
	b->fetch = malloc(sizeof(*b->fetch) * 2 * (n ? n : 1));
	if (b->kernel)
		b->miss = calloc(n ? n * (size_t)st.nvcpus * CACHE_NLEVELS : 1,
				 sizeof(*b->miss));
	if (!b->fetch || (b->kernel && !b->miss))
		return -1;
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t a = qemu_plugin_insn_vaddr(insn), size = qemu_plugin_insn_size(insn);
		uint64_t line;

		for (line = a >> shift; line <= (a + (size ? size : 1) - 1) >> shift; line++) {
			/* user text by its virtual address, kept apart from
			 * the physical addresses of data (the sets are the
			 * same; only a false hit in L2 is kept out) */
			uint64_t addr = line << shift | (b->kernel ? 0 : 1ULL << 62);

			if (!b->nfetch || b->fetch[b->nfetch - 1].line != addr)
				b->fetch[b->nfetch++] = (struct fetch){ addr, (uint32_t)i };
		}
		qemu_plugin_register_vcpu_mem_cb(insn, on_data, QEMU_PLUGIN_CB_NO_REGS,
						 QEMU_PLUGIN_MEM_RW,
						 b->kernel ? &b->miss[i * st.nvcpus *
								      CACHE_NLEVELS] : NULL);
	}
	return 0;
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;
	struct block *b = calloc(1, sizeof(*b) + 3 * sizeof(uint64_t) * (size_t)st.nvcpus);

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
	b->cp.kernel = (uint8_t)b->kernel;
	b->cp.start = qemu_plugin_tb_vaddr(tb);
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		int m = mark_of(insn);

		b->insn[i] = qemu_plugin_insn_vaddr(insn);
		if (m >= 0)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_mark,
							       QEMU_PLUGIN_CB_NO_REGS,
							       m ? (void *)1 : NULL);
		if (b->kernel && callpath_stack_op(qemu_plugin_insn_data(insn),
						   qemu_plugin_insn_size(insn),
						   !strcmp(st.target, "aarch64")))
			qemu_plugin_register_vcpu_mem_cb(insn, on_switch,
							 QEMU_PLUGIN_CB_NO_REGS,
							 QEMU_PLUGIN_MEM_W, NULL);
		if (i + 1 == n) {
			b->cp.last = b->insn[i];
			b->cp.next = b->insn[i] + qemu_plugin_insn_size(insn);
			callpath_classify(&b->cp, qemu_plugin_insn_data(insn),
					  qemu_plugin_insn_size(insn),
					  !strcmp(st.target, "aarch64"));
		}
	}
	if (st.cache && cache_block(b, tb)) {
		st.failed = 1;
		return;  /* kept, so freed at exit; its blocks go uncounted */
	}
	qemu_plugin_register_vcpu_tb_exec_cb(tb, on_block, QEMU_PLUGIN_CB_NO_REGS, b);
}

/* A vCPU's path tree, then its counts per (path, instruction). */
static void write_paths(FILE *f, int v, const struct callpath_vcpu *c)
{
	size_t i, k;

	for (i = 1; i < c->nnodes; i++)
		fprintf(f, "n %d %zu %u %" PRIx64 "\n", v, i, c->nodes[i].parent,
			c->nodes[i].site);
	for (i = 0; i < c->countcap; i++) {
		const struct callpath_count *e = &c->counts[i];
		const struct block *b;

		if (!e->key)
			continue;
		b = st.blocks[(uint32_t)(e->key - 1)];
		for (k = 0; k < b->ninsns; k++)
			fprintf(f, "s %d %u %" PRIx64 " %" PRIu64 "\n", v,
				(uint32_t)((e->key - 1) >> 32), b->insn[k], e->n);
	}
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
	for (v = 0; v < st.nvcpus; v++)
		st.failed |= st.cpv[v].failed;
	fprintf(f, "perpkt-exact %d\ntarget %s\nvcpus %d\nmarks %" PRIu64 " %" PRIu64
		"\nblocks %zu\nwhole %d\npaths %d\n", PERPKT_EXACT_FILE_VERSION, st.target,
		st.nvcpus, st.opens, st.closes, st.nblocks, !st.failed, st.paths);
	if (st.cache) {
		char spec[256];

		cachemodel_spec(&st.geo, spec, sizeof(spec));
		fprintf(f, "cache %s\n", spec);
		for (v = 0; v < st.nvcpus; v++)
			fprintf(f, "um %d %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", v,
				st.umiss[v][CACHE_L1I], st.umiss[v][CACHE_L1D],
				st.umiss[v][CACHE_L2]);
	}
	for (v = 0; v < st.nvcpus; v++) {
		const struct callpath_vcpu *c = &st.cpv[v];

		fprintf(f, "cpu %d %" PRIu64 " %" PRIu64 "\n", v, kernel[v], user[v]);
		fprintf(f, "follow %d %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
			" %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", v, c->calls, c->irqs,
			c->unmatched, c->deep, c->resets, c->switches, c->resumed, c->retaken);
	}
	for (i = 0; i < st.nblocks; i++) {
		const struct block *b = st.blocks[i];

		if (!b->kernel)
			continue;
		for (v = 0; v < st.nvcpus; v++) {
			for (k = 0; b->miss && k < b->ninsns; k++) {
				const uint64_t *m = &b->miss[(k * st.nvcpus + v) * CACHE_NLEVELS];

				if (m[CACHE_L1I] || m[CACHE_L1D] || m[CACHE_L2])
					fprintf(f, "m %" PRIx64 " %d %" PRIu64 " %" PRIu64 " %"
						PRIu64 "\n", b->insn[k], v, m[CACHE_L1I],
						m[CACHE_L1D], m[CACHE_L2]);
			}
			if (!b->count[v])
				continue;
			for (k = 0; k < b->ninsns; k++)
				fprintf(f, "i %" PRIx64 " %d %" PRIu64 "\n", b->insn[k], v,
					b->count[v]);
			if (b->count[st.nvcpus + v])
				fprintf(f, "c %" PRIx64 " %d %" PRIu64 "\n", b->insn[0], v,
					b->count[st.nvcpus + v]);
			if (b->count[2 * st.nvcpus + v])
				fprintf(f, "j %" PRIx64 " %d %" PRIu64 " %" PRIx64 "\n",
					b->cp.last, v, b->count[2 * st.nvcpus + v],
					b->cp.target);
		}
	}
	for (v = 0; v < st.nvcpus; v++)
		write_paths(f, v, &st.cpv[v]);
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
		else if (!strcmp(argv[i], "paths=1") || !strcmp(argv[i], "paths=on"))
			st.paths = 1;
		else if (!strncmp(argv[i], "cache=", 6)) {
			char why[512];

			if (cachemodel_parse(argv[i] + 6, &st.geo, why, sizeof(why))) {
				qemu_plugin_outs("perpkt-exact: cache=: ");
				qemu_plugin_outs(why);
				qemu_plugin_outs("\n");
				return -1;
			}
			st.cache = 1;
		}
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
	st.cpv = calloc((size_t)st.nvcpus, sizeof(*st.cpv));
	if (!st.cpv) {
		qemu_plugin_outs("perpkt-exact: out of memory\n");
		return -1;
	}
	for (i = 0; i < st.nvcpus; i++)
		callpath_init(&st.cpv[i], st.paths);
	if (st.cache) {
		st.cm = calloc((size_t)st.nvcpus, sizeof(*st.cm));
		st.umiss = calloc((size_t)st.nvcpus, sizeof(*st.umiss));
		for (i = 0; st.cm && i < st.nvcpus; i++)
			if (cachemodel_init(&st.cm[i], &st.geo))
				break;
		if (!st.cm || !st.umiss || i < st.nvcpus) {
			qemu_plugin_outs("perpkt-exact: out of memory for the cache model\n");
			return -1;
		}
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, on_exit_cb, NULL);
	return 0;
}
