// SPDX-License-Identifier: GPL-2.0-only
#include "reports/renderers.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "reports/report-table.h"
#include "reports/sides.h"
#include "reports/summary.h"

/*
 * GitHub/GitLab-flavoured markdown for issue trackers: the header as a
 * list, the decomposition and tables as pipe tables. Cells have '|'
 * escaped; nothing here depends on a width.
 */

static void cell(FILE *f, const char *s)
{
	fputs("| ", f);
	for (; s && *s; s++) {
		if (*s == '|' || *s == '\\' || *s == '*' || *s == '_' ||
		    *s == '`' || *s == '<')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc(' ', f);
}

static void table(FILE *f, const struct model *m, const struct model_view *v,
		  const char *title, const struct render_options *o)
{
	size_t i, e;

	fprintf(f, "\n### %s\n\n| %s | samples | %% | cum %% ", title, title);
	for (e = 0; e < m->nevents; e++) {
		fprintf(f, "| %s/%s ", m->run.events[e].name ?
			m->run.events[e].name : "?", m->run.unit.abbrev);
		if (!e)
			fprintf(f, "| %s ", report_error_label(m));
	}
	if (m->cycles_event >= 0 && m->insns_event >= 0)
		fputs("| IPC ", f);
	fputs("|\n|---|--:|--:|--:", f);
	for (e = 0; e < m->nevents; e++)
		fputs(e ? "|--:" : "|--:|--:", f);
	if (m->cycles_event >= 0 && m->insns_event >= 0)
		fputs("|--:", f);
	fputs("|\n", f);
	for (i = 0; i < v->n; i++) {
		const struct model_row *r = &v->rows[i];
		struct report_cells c;

		if (!report_row_shown(o, i, r))
			break;
		report_row_cells(m, r, &c);
		cell(f, r->name);
		fprintf(f, "| %llu | %.2f | %.2f ", c.samples, 100 * c.share,
			100 * c.cum);
		for (e = 0; e < m->nevents; e++) {
			fprintf(f, "| %.1f ", c.value[e]);
			if (!e)
				fprintf(f, "| %.1f ", c.error[0]);
		}
		if (m->cycles_event >= 0 && m->insns_event >= 0) {
			if (c.ipc >= 0)
				fprintf(f, "| %.2f ", c.ipc);
			else
				fputs("| - ", f);
		}
		fputs("|\n", f);
	}
	if (i < v->n)
		fprintf(f, "\n%zu more rows not shown.\n", v->n - i);
}

/* record --peer: local and remote side by side. */
static int sides(FILE *f, const struct model *m)
{
	struct sides sd;
	size_t i;

	if (sides_build(&sd, m))
		return -1;
	if (sd.n) {
		fprintf(f, "\n### Both sides\n\n%s\n\n| | local | remote |\n|---|--:|--:|\n",
			sd.title);
		for (i = 0; i < sd.n; i++) {
			char label[96];

			snprintf(label, sizeof(label), "%s%s",
				 sd.lines[i].bucket ? "bucket " : "",
				 sd.lines[i].label + (sd.lines[i].bucket ? 2 : 0));
			cell(f, label);
			cell(f, sd.lines[i].local);
			cell(f, sd.lines[i].remote);
			fputs("|\n", f);
		}
		fprintf(f, "\n%s\n\n%s\n", sd.tops, sd.note);
	}
	sides_free(&sd);
	return 0;
}

int report_markdown(FILE *f, const void *model,
		    const struct render_options *o)
{
	const struct model *m = model;
	struct render_options defaults = { .width = 0 };
	const struct run_facts *run = &m->run;
	struct summary s;
	size_t i;

	if (!o)
		o = &defaults;
	if (model_empty(m))
		return error("report of an empty model");
	if (summary_build(&s, m, o->all_conditions))
		return -1;
	if (run->workload_command)
		fprintf(f, "## perpkt report: `%s`, per %s\n\n",
			run->workload_command, run->unit.name);
	else
		fprintf(f, "## perpkt report: %s over %s, %u-byte messages\n\n",
			run->transport ? run->transport : "unknown",
			run->network ? run->network : "unknown", run->message_size);
	if (s.headline)
		fprintf(f, "**%s**\n\n", s.headline);
	for (i = 0; i < s.nwarnings; i++)
		fprintf(f, "> **warning:** %s\n%s", s.warnings[i],
			i + 1 == s.nwarnings ? "\n" : ">\n");
	for (i = 0; i < s.nfacts; i++)
		fprintf(f, "- **%s**: %s\n", s.facts[i].key, s.facts[i].value);
	if (s.nconds) {
		fputs("\n<details><summary>conditions</summary>\n\n", f);
		for (i = 0; i < s.nconds; i++)
			fprintf(f, "- `%s` = %s\n", s.conds[i].key,
				s.conds[i].value);
		if (s.nconds_hidden)
			fprintf(f, "- and %zu more (--all-conditions)\n",
				s.nconds_hidden);
		fputs("\n</details>\n", f);
	}
	fprintf(f, "\n### Latency decomposition\n\n%s\n\n", s.decomp_title);
	if (s.ndecomp) {
		fprintf(f, "| part | per %s | share |\n|---|--:|--:|\n",
			run->unit.abbrev);
		for (i = 0; i < s.ndecomp; i++) {
			fprintf(f, "| %s%s%s ", s.decomp[i].flag ? "**!** " : "",
				s.decomp[i].indent ? "&nbsp;&nbsp;" : "",
				s.decomp[i].label);
			fprintf(f, "| %s | %s |\n", s.decomp[i].value,
				s.decomp[i].share);
		}
	}
	fputs("\n### Reconciliation\n\n", f);
	for (i = 0; i < s.nrecon; i++)
		fprintf(f, "- %s%s\n", s.recon[i].flag ? "**!** " : "",
			s.recon[i].label);
	if (s.empty) {
		fprintf(f, "\n%s\n", s.empty);
	} else {
		if (o->by != MODEL_BY_ROLE)
			table(f, m, &m->views[MODEL_BY_ROLE], "role",
			      &defaults);
		if (o->by != MODEL_BY_BUCKET)
			table(f, m, &m->views[MODEL_BY_BUCKET], "bucket",
			      &defaults);
		table(f, m, &m->views[o->by], model_view_title(m, o->by), o);
		if (m->callers_of) {
			char title[300];

			snprintf(title, sizeof(title), "callers of %s",
				 m->callers_of);
			table(f, m, &m->callers, title, o);
		}
		fprintf(f, "\nPer %s: %.1f %s in total, %.1f busy (without the %s bucket).\n",
			run->unit.name, m->total.per_rt[0], run->events[0].unit ?
			run->events[0].unit : "", m->busy.per_rt[0],
			MODEL_IDLE_BUCKET);
	}
	if (sides(f, m)) {
		summary_free(&s);
		return error("out of memory writing the report");
	}
	fputc('\n', f);
	for (i = 0; i < s.nnotes; i++)
		fprintf(f, "> %s\n>\n", s.notes[i]);
	summary_free(&s);
	if (fflush(f) || ferror(f))
		return error("cannot write report: %s", strerror(errno));
	return 0;
}
