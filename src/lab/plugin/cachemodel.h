/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_LAB_PLUGIN_CACHEMODEL_H
#define PERPKT_LAB_PLUGIN_CACHEMODEL_H

/*
 * The exact plugin's cache model (record --exact --cache-model): one
 * core's instruction and data caches and its second level, each set
 * associative with LRU replacement, as the guest's fetches and memory
 * accesses reach them in program order. What it is not: no
 * prefetcher, no out-of-order or speculative access, no TLB, no
 * coherence between cores (each vCPU has its own three caches), no
 * write-back traffic (a store allocates its line like a load), L2
 * neither inclusive nor exclusive (an L1 miss looks there and fills
 * both; an L2 eviction leaves L1 alone).
 *
 * Read by the plugin, by perpkt (the option's check and its words) and
 * by the unit tests: no QEMU or perpkt header.
 */
#include <stddef.h>
#include <stdint.h>

enum cachemodel_level { CACHE_L1I, CACHE_L1D, CACHE_L2, CACHE_NLEVELS };

/* A model's figures: per level its size and ways, one line size. */
struct cachemodel_geometry {
	char name[32];           /* the preset it started from, or "custom" */
	uint64_t size[CACHE_NLEVELS];
	uint32_t ways[CACHE_NLEVELS];
	uint32_t line;
};

/* One level: sets x ways lines, each set's ways most recently used
 * first (tag[set * ways + 0] the newest), 0 for an empty way (a line
 * number is kept + 1). */
struct cachemodel_cache {
	uint32_t sets, ways, line_shift;
	uint64_t *tag;
	uint64_t accesses, misses;
};

struct cachemodel {
	struct cachemodel_cache level[CACHE_NLEVELS];
};

/* The presets, NULL-terminated, and one's figures by name (NULL when
 * there is none). */
extern const struct cachemodel_geometry cachemodel_presets[];
const struct cachemodel_geometry *cachemodel_preset(const char *name);

/*
 * A model from its words: a preset ("skylake"), or each level and the
 * line, "l1i=32K:8,l1d=48K:12,l2=2M:16,line=64" (sizes in bytes, K or
 * M; ways), or a preset then levels that change it
 * ("skylake,l2=1M:16"). Items are parted by ',' or '/'. Every level
 * must have a power of two of sets, and the line a power of two from
 * 16 to 256 bytes. -1 with the reason in why.
 */
int cachemodel_parse(const char *spec, struct cachemodel_geometry *g,
		     char *why, size_t len);
/* Its figures as a spec cachemodel_parse reads back, parted by '/' (a
 * QEMU plugin argument cannot hold a comma): "skylake/l1i=32K:8/...". */
void cachemodel_spec(const struct cachemodel_geometry *g, char *buf, size_t len);
/* In words: "L1I 32 KiB 8-way, L1D 32 KiB 8-way, L2 256 KiB 4-way,
 * 64-byte lines". */
void cachemodel_describe(const struct cachemodel_geometry *g, char *buf, size_t len);

/* Empty caches of g's figures (checked by cachemodel_parse); -1 when
 * out of memory. */
int cachemodel_init(struct cachemodel *m, const struct cachemodel_geometry *g);
void cachemodel_free(struct cachemodel *m);

/* One access to addr's line in c: 1 a hit, 0 a miss (the line is then
 * brought in, the set's least recently used line evicted). */
int cachemodel_cache_access(struct cachemodel_cache *c, uint64_t addr);

/*
 * A fetch of the line holding addr: L1I, then L2 on a miss. A data
 * access of size bytes at addr: L1D (each line it spans), then L2 for
 * each miss. Each adds its misses to *l1 and *l2.
 */
void cachemodel_fetch(struct cachemodel *m, uint64_t addr, unsigned *l1, unsigned *l2);
void cachemodel_data(struct cachemodel *m, uint64_t addr, unsigned size,
		     unsigned *l1, unsigned *l2);

#endif
