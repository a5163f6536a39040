// SPDX-License-Identifier: GPL-2.0-only
/* perpkt diff --format svg: the differential flame graph of B against
 * A, a standalone SVG to attach to a bug (reports/flame/flame-svg.c). */
#include "reports/render/renderers.h"

#include "error.h"
#include "reports/diff/diff.h"
#include "reports/flame/flame.h"

int diff_svg(FILE *f, const void *model, const struct render_options *o)
{
	const struct diff *d = model;
	struct flame fl;

	(void)o;
	if (d->n != 2)
		return error("an SVG compares exactly two profiles (the HTML diff draws a graph for each)");
	if (flame_build_diff(&fl, d, 1))
		return -1;
	return flame_svg_document(f, &fl, "flame-1");
}
