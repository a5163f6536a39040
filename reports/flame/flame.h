/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_FLAME_H
#define PERPKT_FLAME_H

#include <stddef.h>
#include <stdio.h>

#include "reports/diff/diff.h"
#include "reports/model/model.h"

/*
 * A flame graph per round trip: the callchains of a model merged into a
 * tree, each frame as wide as its inclusive value per round trip.
 * Without callchains (--no-call-graph, exact counts) it is one level:
 * bucket, then function. A differential graph (flame_build_diff) sizes
 * B's frames by B and compares each frame's own time with A's, frames
 * matched by the diff's names (diff_match_name). Built from a model or
 * a diff; drawn by flame-svg.c, for the HTML pages and --format svg.
 */

struct flame_node {
	const char *name;       /* folded function, or bucket in one level */
	/* its colour in a report graph: the bucket the tables put its own
	 * time in (an irq-enable point's is its caller's), else its own */
	const char *bucket;
	const char *own_bucket; /* from the stacks ending here, NULL: none */
	double own_bucket_w;
	int charged;            /* own time in another bucket than its rule's */
	const char *file;       /* NULL when unknown */
	int line;               /* 0 when unknown */
	size_t parent, child, next;  /* indexes; 0 is none (the root) */
	int depth;              /* root 0 */
	/* [0] the graph's side (B in a diff), [1] A in a diff */
	double value[2];        /* inclusive, per round trip */
	double self[2];         /* own, without callees */
	double samples[2], self_samples[2];
	double x;               /* left edge, per round trip from the left */
	struct diff_cmp cmp;    /* diff: own time B against A */
	/* diff: FLAME_CHANGED its own time (marked, or any change where
	 * nothing could be tested), FLAME_CHANGED_BELOW a frame it calls:
	 * what its label gives a figure for */
	int changed;
};
#define FLAME_CHANGED 1
#define FLAME_CHANGED_BELOW 2

/* A bucket of the tables, for a report graph's legend. */
struct flame_bucket {
	const char *name;
	double share;           /* of the busy time, as the text says it */
};

/* A frame of A that B no longer has, for the list under the graph. */
struct flame_gone {
	char *path;             /* "root;...;frame" */
	double value;           /* A's inclusive per round trip */
};

struct flame {
	struct flame_node *nodes;  /* nodes[0] is the root, "all" */
	size_t n, cap;
	int diff;               /* two sides */
	int stacks;             /* 0: one level by bucket and function */
	const char *unit;       /* of the values: "ns", "instructions" ... */
	const char *per;        /* "round trip", or a --per unit */
	char title[160];        /* what the graph is of, one line */
	char side[2][96];       /* diff: "B: file" and "A: file" */
	double max_self_delta;  /* diff: largest |own delta|, full colour */
	int dim_unmarked;       /* diff: an unmarked change drawn faint */
	struct flame_gone *gone;   /* diff: heaviest first */
	size_t ngone;
	/* frames narrower than min_width (drawing units) are not drawn */
	size_t left_out;
	/* report: the model's buckets, heaviest first, idle left out and
	 * unknown last, what the text's "top bucket" is the first of */
	struct flame_bucket *buckets;
	size_t nbuckets;
	int charged;            /* some frame's time is charged elsewhere */
};

/* A bucket's colour, the same in every graph: fixed for the built-in
 * rules' buckets, a hash of the name into the palette for others. */
const char *flame_bucket_color(const char *bucket);

/* The report graph of m's workload (the whole model without one), the
 * idle loop left out. -1 after printing why. */
int flame_build(struct flame *f, const struct model *m);
/* Profile k of d (>= 1) against A. -1 after printing why. */
int flame_build_diff(struct flame *f, const struct diff *d, size_t k);
void flame_free(struct flame *f);

/* Frames of at least min_share of the root are drawn: about a pixel
 * of a 1200-pixel graph, what flamegraph.pl leaves out too. */
#define FLAME_MIN_SHARE (1.0 / 1200)
#define FLAME_WIDTH 1200

/* Share of the root's value, 0..1. */
double flame_share(const struct flame *f, const struct flame_node *n);
/* The line that says how to get call paths, NULL with stacks. */
const char *flame_no_stacks_note(const struct flame *f);

/*
 * The graph as an <svg> element: standalone (an XML document with its
 * own script, --format svg) or inside an HTML page (the page's script,
 * flame_script). `id` names it in the page. Frames carry their figures
 * in attributes the script reads; a <title> in each is the hover when
 * no script runs.
 */
void flame_svg(FILE *out, const struct flame *f, const char *id,
	       int standalone);
/* The graph in an HTML page: its search box and <svg>; the page ends
 * with flame_html_script() once. */
void flame_html(FILE *out, const struct flame *f, const char *id);
void flame_html_script(FILE *out);
/* The standalone document (--format svg) to out, whole or nothing;
 * frees f. 0, or -1 after printing why. */
int flame_svg_document(FILE *out, struct flame *f, const char *id);
/* The script the graph's frames need: hover, zoom, search, self-test. */
extern const char flame_script[];

#endif
