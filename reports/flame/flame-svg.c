// SPDX-License-Identifier: GPL-2.0-only
/*
 * A flame graph as one <svg>: root at the bottom, a frame as wide as
 * its value per round trip. Each frame is a <g class="f"> with its
 * rectangle, label and a <title> (the hover, script or not), and the
 * figures the script (flame-script.c) needs to zoom and search:
 * data-n name, data-f figure, data-x and data-w its place as shares of
 * the root, data-d depth. The same writer serves the HTML pages and
 * --format svg.
 */
#include "reports/flame/flame.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "reports/render/html-common.h"
#include "reports/render/markup.h"
#include "reports/render/renderers.h"

#define X0 10                   /* the graph's left edge */
#define GRAPH_W (FLAME_WIDTH - 2 * X0)
#define FRAME_H 16
#define CHAR_W 6.5              /* of the 11-pixel labels */
#define GONE_SHOWN 12
#define LEGEND_MAX 12
/* frames the search highlights; the script has the same colour */
#define COLOR_MATCH "#e040fb"
#define COLOR_NEUTRAL "#dcdcdc"

/* Bucket colours: one a bucket in every graph (flame_bucket_color). */
static const struct {
	const char *bucket, *color;
} fixed_colors[] = {
	{ "scheduler", "#e45756" }, { "net-core", "#f58518" },
	{ "udp", "#eeca3b" }, { "tcp", "#d6a21e" }, { "ip", "#54a24b" },
	{ "socket", "#4c78a8" }, { "syscall", "#b279a2" },
	{ "irq", "#ff9da6" }, { "irq-enable", "#9d755d" },
	{ "driver", "#72b7b2" }, { "memory", "#d67195" },
	{ "locking", "#88d27a" }, { "copy", "#bab0ac" },
	{ "timekeeping", "#8cd1ff" }, { "netfilter", "#c49c94" },
	{ "tc", "#17becf" }, { "tap", "#aec7e8" }, { "bpf", "#ffbb78" },
	{ "hash", "#98df8a" }, { "profiler", "#c5b0d5" },
	{ "user", "#7f7f7f" }, { "idle", "#e7e7e7" },
	{ "other", "#c8c8c8" }, { "unknown", "#b0b0b0" },
};
/* for buckets of a rules file of one's own, by a hash of the name */
static const char *const palette[] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
	"#e377c2", "#bcbd22", "#17a589", "#5dade2", "#f1948a", "#a9cce3",
};
#define LEGEND_MAX 12

const char *flame_bucket_color(const char *bucket)
{
	unsigned int h = 2166136261u;  /* FNV-1a: the same on every run */
	size_t i;

	for (i = 0; i < sizeof(fixed_colors) / sizeof(fixed_colors[0]); i++)
		if (!strcmp(fixed_colors[i].bucket, bucket))
			return fixed_colors[i].color;
	for (; *bucket; bucket++)
		h = (h ^ (unsigned char)*bucket) * 16777619u;
	return palette[h % (sizeof(palette) / sizeof(palette[0]))];
}

static int drawn(const struct flame *f, const struct flame_node *n)
{
	return n->value[0] > 0 && flame_share(f, n) >= FLAME_MIN_SHARE;
}

/* A figure per round trip as the tables print it: 12000, 12.3, 0.42. */
static void put_value(FILE *out, double v)
{
	double a = fabs(v);

	markup_printf(out, a >= 100 || a == 0 ? "%.0f" : a >= 10 ? "%.1f" : "%.2f",
		v);
}

static const char *bucket_of(const struct flame_node *n)
{
	return n->bucket ? n->bucket : "other";
}

/*
 * A differential frame's colour: red when its own time grew, blue when
 * it shrank, strength by the size of the change against the largest
 * one; a change without a significance mark is drawn at a third of
 * that where the diff could test it, one of no size grey.
 */
static void diff_color(char *buf, size_t len, const struct flame *f,
		       const struct flame_node *n)
{
	double s = f->max_self_delta > 0 ?
		   fabs(n->cmp.delta) / f->max_self_delta : 0;
	int fade;

	if (n->cmp.delta == 0 || !(s > 0)) {
		snprintf(buf, len, COLOR_NEUTRAL);
		return;
	}
	if (!n->cmp.mark && f->dim_unmarked)
		s /= 3;
	fade = (int)lround(220 - 190 * s);
	if (n->cmp.delta > 0)
		snprintf(buf, len, "#%02x%02x%02x", 255, fade, fade);
	else
		snprintf(buf, len, "#%02x%02x%02x", fade, fade, 255);
}

/* "12000 ns, 30.0%"; in a diff, the change of the frame's own time,
 * "+1200 ns **", or of what it calls when it has none: "calls +1200 ns". */
static void put_figure(FILE *out, const struct flame *f,
		       const struct flame_node *n)
{
	int own = n->self[0] > 0 || n->self[1] > 0;
	double dl = own ? n->cmp.delta : n->value[0] - n->value[1];

	if (!f->diff) {
		put_value(out, n->value[0]);
		markup_printf(out, " %s, %.1f%%", f->unit, 100 * flame_share(f, n));
		return;
	}
	markup_printf(out, "%s%c", own ? "" : "calls ", dl >= 0 ? '+' : '-');
	put_value(out, fabs(dl));
	markup_printf(out, " %s", f->unit);
	if (own && n->cmp.mark)
		markup_printf(out, " %s", diff_mark(n->cmp.mark));
}

/* The hover: every figure of the frame, in one line. */
static void put_title(FILE *out, const struct flame *f,
		      const struct flame_node *n)
{
	double err = n->samples[0] > 0 ? n->value[0] / sqrt(n->samples[0]) : 0;

	markup_escape(out, n->name);
	fputs(": ", out);
	put_value(out, n->value[0]);
	markup_printf(out, " %s per ", f->unit);
	markup_escape(out, f->per);
	markup_printf(out, " (%.1f%%) &#177; ", 100 * flame_share(f, n));
	put_value(out, err);
	if (n->depth) {
		fputs(", bucket ", out);
		markup_escape(out, bucket_of(n));
		if (n->charged)
			fputs(" (its time charged to its caller, as in the tables)",
			      out);
	}
	if (n->file) {
		fputs(", ", out);
		markup_escape(out, n->file);
		if (n->line)
			markup_printf(out, ":%d", n->line);
	}
	if (!f->diff)
		return;
	fputs("; A ", out);
	put_value(out, n->value[1]);
	markup_printf(out, "%s; own time ", n->value[1] > 0 ? "" : " (new)");
	put_value(out, n->self[1]);
	fputs(" -> ", out);
	put_value(out, n->self[0]);
	markup_printf(out, " %s, %c", f->unit, n->cmp.delta >= 0 ? '+' : '-');
	put_value(out, fabs(n->cmp.delta));
	markup_printf(out, " &#177; ");
	put_value(out, n->cmp.sigma);
	markup_printf(out, " %s", diff_mark(n->cmp.mark));
}

/* A diff frame's figure in its label: its own change when it changed,
 * what it calls when it has no own time and something under it did;
 * none for an unchanged frame (the hover still has it). */
static int label_figure(const struct flame *f, const struct flame_node *n)
{
	int own = n->self[0] > 0 || n->self[1] > 0;

	if (!f->diff)
		return 1;
	return (n->changed & FLAME_CHANGED) ||
	       (!own && (n->changed & FLAME_CHANGED_BELOW));
}

/* name cut to `room` characters, ".." included; never a cut UTF-8
 * character */
static void put_cut(FILE *out, const char *name, size_t room)
{
	char *cut = room > 2 ? strndup(name, room - 2) : NULL;
	size_t len;

	if (!cut)
		return;
	len = strlen(cut);
	while (len && ((unsigned char)cut[len - 1] & 0xc0) == 0x80)
		len--;
	if (len && ((unsigned char)cut[len - 1] & 0xc0) == 0xc0)
		len--;
	cut[len] = '\0';
	markup_escape(out, cut);
	fputs("..", out);
	free(cut);
}

/* The label that fits w pixels: name and figure, the name, or a cut
 * name; a changed diff frame keeps its figure before its whole name.
 * flame-script.c's label() does the same after a zoom. */
static void put_label(FILE *out, const struct flame *f,
		      const struct flame_node *n, double w)
{
	size_t fit = w > 6 ? (size_t)((w - 6) / CHAR_W) : 0, len;
	int keep = f->diff && label_figure(f, n);
	char *fig = NULL;
	size_t flen = 0;
	FILE *mem;

	if (fit < 3)
		return;
	len = strlen(n->name);
	mem = label_figure(f, n) ? open_memstream(&fig, &flen) : NULL;
	if (mem) {
		put_figure(mem, f, n);
		fclose(mem);
	}
	if (fig && len + flen + 3 <= fit) {
		markup_escape(out, n->name);
		fputs(" (", out);
		fputs(fig, out);  /* markup: put_figure escaped it */
		fputc(')', out);
	} else if (keep && fig && fit >= flen + 3 + 5) {
		put_cut(out, n->name, fit - flen - 3);
		fputs(" (", out);
		fputs(fig, out);  /* markup: put_figure escaped it */
		fputc(')', out);
	} else if (keep && fig && flen <= fit) {
		fputs(fig, out);  /* markup: put_figure escaped it */
	} else if (len <= fit) {
		markup_escape(out, n->name);
	} else {
		put_cut(out, n->name, fit);
	}
	free(fig);
}

static void put_frame(FILE *out, const struct flame *f,
		      const struct flame_node *n, int top)
{
	double total = f->nodes[0].value[0];
	double x = n->x / total, w = n->value[0] / total;
	double px = X0 + GRAPH_W * x, pw = GRAPH_W * w;
	int y = top - n->depth * FRAME_H;
	char fill[16];
	/* a frame A did not have: outlined, whatever its own time did */
	int fresh = f->diff && n->depth && n->value[1] <= 0;

	if (f->diff && n->depth)
		diff_color(fill, sizeof(fill), f, n);
	else
		snprintf(fill, sizeof(fill), "%s", n->depth ?
			 flame_bucket_color(bucket_of(n)) : COLOR_NEUTRAL);
	fputs("<g class=\"f\" data-n=\"", out);
	markup_escape(out, n->name);
	fputs("\" data-f=\"", out);
	put_figure(out, f, n);
	if (f->diff) {
		/* the label's figure, empty for an unchanged frame */
		fputs("\" data-l=\"", out);
		if (label_figure(f, n))
			put_figure(out, f, n);
	}
	markup_printf(out, "\" data-x=\"%.7g\" data-w=\"%.7g\" data-d=\"%d\"><title>",
		x, w, n->depth);
	put_title(out, f, n);
	markup_printf(out, "</title><rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\"",
		      px, y, pw, FRAME_H - 1, fill);
	if (fresh)
		fputs(" class=\"new\"", out);
	markup_printf(out, "/><text x=\"%.2f\" y=\"%d\">", px + 3,
		      y + FRAME_H - 4);
	put_label(out, f, n, pw);
	fputs("</text></g>\n", out);
}

static void put_legend(FILE *out, const struct flame *f, int y)
{
	static const char *const diff_keys[][2] = {
		{ "#ff4040", "own time grew" }, { "#4040ff", "shrank" },
		{ "#ffb6b6", "grew, no mark" }, { COLOR_NEUTRAL, "unchanged" },
		{ "#ffffff", "outlined: not in A" },
	};
	double x = X0;
	size_t i, n = f->diff ? sizeof(diff_keys) / sizeof(diff_keys[0]) :
		      f->nbuckets < LEGEND_MAX ? f->nbuckets : LEGEND_MAX;

	for (i = 0; i < n; i++) {
		const char *color = f->diff ? diff_keys[i][0] :
				    flame_bucket_color(f->buckets[i].name);

		markup_printf(out, "<rect x=\"%.1f\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"",
			      x, y - 10, color);
		if (f->diff && i == 4)
			fputs(" class=\"new\"", out);
		markup_printf(out, "/><text x=\"%.1f\" y=\"%d\">", x + 16, y);
		if (f->diff) {
			markup_escape(out, diff_keys[i][1]);
			x += 28 + CHAR_W * strlen(diff_keys[i][1]);
		} else {
			markup_escape(out, f->buckets[i].name);
			markup_printf(out, " %.0f%%", 100 * f->buckets[i].share);
			/* swatch, name, " 23%", a gap */
			x += 16 + CHAR_W * (strlen(f->buckets[i].name) + 4) + 14;
		}
		fputs("</text>\n", out);
		if (x > FLAME_WIDTH - 110)
			break;
	}
	if (f->diff)
		markup_printf(out, "<text x=\"%.1f\" y=\"%d\">* ** as in the tables</text>\n",
			x, y);
	else if (n)
		markup_printf(out, "<text x=\"%.1f\" y=\"%d\">of busy, as tables</text>\n",
			x, y);
}

/* A call path that fits a line: its root, "...", and the frames
 * nearest the leaf that fit. */
static void put_path(FILE *out, const char *path)
{
	size_t fit = (size_t)((GRAPH_W - 60) / CHAR_W), len = strlen(path);
	const char *tail, *root_end = strchr(path, ';');

	if (len <= fit || !root_end || (size_t)(root_end - path) + 5 >= fit) {
		markup_escape(out, path);
		return;
	}
	for (tail = path + len - (fit - (size_t)(root_end - path) - 5);
	     *tail && *tail != ';'; tail++)
		;
	if (!*tail || tail <= root_end) {
		markup_escape(out, path);
		return;
	}
	markup_printf(out, "%.*s;...", (int)(root_end - path), path);
	markup_escape(out, tail);
}

/* Frames of A that B has no more, under the graph. */
static int put_gone(FILE *out, const struct flame *f, int y)
{
	size_t i;

	if (!f->ngone)
		return y;
	markup_printf(out, "<text class=\"gone\" x=\"%d\" y=\"%d\">Only in A (not drawn), %s per ",
		X0, y, f->unit);
	markup_escape(out, f->per);
	fputs(":</text>\n", out);
	for (i = 0; i < f->ngone && i < GONE_SHOWN; i++) {
		y += FRAME_H;
		markup_printf(out, "<text class=\"gone\" x=\"%d\" y=\"%d\">", X0 + 10, y);
		put_value(out, f->gone[i].value);
		fputs("  ", out);
		put_path(out, f->gone[i].path);
		fputs("</text>\n", out);
	}
	if (f->ngone > GONE_SHOWN) {
		y += FRAME_H;
		markup_printf(out, "<text class=\"gone\" x=\"%d\" y=\"%d\">and %zu more</text>\n",
			X0 + 10, y, f->ngone - GONE_SHOWN);
	}
	return y;
}

void flame_svg(FILE *out, const struct flame *f, const char *id,
	       int standalone)
{
	const char *note = flame_no_stacks_note(f);
	int depth = 0, top, height, y;
	size_t i, left_out = 0, gone_lines;

	for (i = 0; i < f->n; i++) {
		if (drawn(f, &f->nodes[i]) && f->nodes[i].depth > depth)
			depth = f->nodes[i].depth;
		else if (!drawn(f, &f->nodes[i]) && f->nodes[i].value[0] > 0 &&
			 drawn(f, &f->nodes[f->nodes[i].parent]))
			left_out++;
	}
	gone_lines = f->ngone ? 1 + (f->ngone < GONE_SHOWN ? f->ngone :
				    GONE_SHOWN + 1) : 0;
	top = 76 + depth * FRAME_H;
	height = top + FRAME_H + 28 + (note ? FRAME_H : 0) +
		 (int)gone_lines * FRAME_H;
	if (standalone)
		fputs("<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"no\"?>\n", out);
	markup_printf(out, "<svg id=\"%s\" class=\"flame\" ", id);
	if (standalone)
		markup_printf(out, "version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\"",
			FLAME_WIDTH, height);
	else
		fputs("width=\"100%\"", out);
	markup_printf(out, " viewBox=\"0 0 %d %d\" data-x0=\"%d\" data-width=\"%d\" role=\"img\">\n",
		FLAME_WIDTH, height, X0, GRAPH_W);
	fputs("<style>.flame text{font-family:sans-serif;font-size:11px;fill:#000}"
	      ".flame .title{font-size:15px}.flame g.f{cursor:pointer}"
	      ".flame g.f rect{stroke:#fff;stroke-width:0.5}"
	      ".flame rect.new{stroke:#b00000;stroke-width:1.5}"
	      ".flame .btn{cursor:pointer;fill:#0645ad}</style>\n", out);
	markup_printf(out, "<rect width=\"%d\" height=\"%d\" fill=\"#fafafa\"/>\n",
		FLAME_WIDTH, height);
	markup_printf(out, "<text class=\"title\" x=\"%d\" y=\"20\" text-anchor=\"middle\">",
		FLAME_WIDTH / 2);
	markup_escape(out, f->title);
	fputs("</text>\n", out);
	if (f->diff) {
		markup_printf(out, "<text x=\"%d\" y=\"38\" text-anchor=\"middle\">width: ",
			FLAME_WIDTH / 2);
		markup_escape(out, f->side[0]);
		fputs(" per frame; colour: change of its own time from ", out);
		markup_escape(out, f->side[1]);
		fputs("</text>\n", out);
	}
	put_legend(out, f, 56);
	markup_printf(out, "<text class=\"btn reset\" x=\"%d\" y=\"%d\" style=\"display:none\">Reset zoom</text>\n",
		X0, 74);
	if (standalone)
		markup_printf(out, "<text class=\"btn search-btn\" x=\"%d\" y=\"%d\" text-anchor=\"end\">Search</text>\n",
			FLAME_WIDTH - X0, 74);
	markup_printf(out, "<text class=\"matched\" x=\"%d\" y=\"%d\" text-anchor=\"end\"></text>\n",
		FLAME_WIDTH - X0 - 60, 74);
	for (i = 0; i < f->n; i++)
		if (drawn(f, &f->nodes[i]) &&
		    (!i || drawn(f, &f->nodes[f->nodes[i].parent])))
			put_frame(out, f, &f->nodes[i], top);
	y = top + FRAME_H + 16;
	markup_printf(out, "<text class=\"details\" x=\"%d\" y=\"%d\">", X0, y);
	if (left_out)
		markup_printf(out, "%zu frames under %.2f%% of the total not drawn. ",
			left_out, 100 * FLAME_MIN_SHARE);
	if (f->charged)
		fputs("A frame whose time the tables charge to a caller (irq-enable points, helpers) has that bucket's colour. ",
		      out);
	if (f->nodes[0].value[0] > 0)
		fputs("Click a frame to zoom, hover for its figures.", out);
	else
		fputs("Nothing to draw: no time per round trip (no round trips, or no samples of the workload).", out);
	fputs("</text>\n", out);
	if (note) {
		y += FRAME_H;
		markup_printf(out, "<text class=\"note\" x=\"%d\" y=\"%d\">%s</text>\n",
			X0, y, note);
	}
	put_gone(out, f, y + FRAME_H);
	if (standalone) {
		fputs("<script type=\"text/ecmascript\"><![CDATA[\n", out);
		fputs(flame_script, out);  /* markup: the script, ours */
		fputs("]]></script>\n", out);
	}
	fputs("</svg>\n", out);
}

void flame_html(FILE *out, const struct flame *f, const char *id)
{
	markup_printf(out, "<p><input type=\"search\" class=\"flame-search\" data-for=\"%s\" size=\"40\" placeholder=\"search functions (regular expression)\"> click a frame to zoom, hover for its figures</p>\n",
		id);
	flame_svg(out, f, id, 0);
}

void flame_html_script(FILE *out)
{
	fputs("<script>\n", out);
	fputs(flame_script, out);  /* markup: the script, ours */
	fputs("</script>\n", out);
}

int flame_svg_document(FILE *out, struct flame *f, const char *id)
{
	char *doc = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&doc, &len);

	/* built whole in memory: a failure leaves stdout untouched */
	if (mem)
		flame_svg(mem, f, id, 1);
	flame_free(f);
	if (!mem || fclose(mem) || !doc) {
		free(doc);
		return error("out of memory writing the flame graph");
	}
	fwrite(doc, 1, len, out);  /* markup: the document, made above */
	free(doc);
	return render_flush(out, "the flame graph");
}
