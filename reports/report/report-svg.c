// SPDX-License-Identifier: GPL-2.0-only
/* perpkt report --format svg: the flame graph alone, a standalone SVG
 * to attach to a bug (reports/flame/flame-svg.c draws it). */
#include "reports/render/renderers.h"

#include "error.h"
#include "reports/flame/flame.h"

int report_svg(FILE *f, const void *model, const struct render_options *o)
{
	const struct model *m = model;
	struct flame fl;

	(void)o;
	if (model_empty(m))
		return error("report of an empty model");
	if (flame_build(&fl, m))
		return -1;
	return flame_svg_document(f, &fl, "flame");
}
