// SPDX-License-Identifier: GPL-2.0-only
#include "reports/render/renderers.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "reports/report/report-table.h"
#include "reports/model/sides.h"
#include "reports/model/summary.h"

/*
 * GitHub/GitLab-flavoured markdown for issue trackers: the header as a
 * list, the decomposition and tables as pipe tables. Every text goes
 * through render_md_text() (a profile is someone else's file: no tag,
 * no '|' of its own); nothing here depends on a width.
 */

static void cell(FILE *f, const char *s)
{
	fputs("| ", f);
	render_md_text(f, s);
	fputc(' ', f);
}

static void row(FILE *f, const struct model *m, const struct model_row *r,
		const char *name)
{
	struct report_cells c;
	size_t e;

	report_row_cells(m, r, &c);
	cell(f, name);
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

static void table(FILE *f, const struct model *m, const struct model_view *v,
		  const char *title, const struct render_options *o)
{
	size_t i, e;

	fputs("\n### ", f);
	render_md_text(f, title);
	fputs("\n\n", f);
	cell(f, title);
	fputs("| samples | % | cum % ", f);
	for (e = 0; e < m->nevents; e++) {
		fputs("| ", f);
		render_md_text(f, m->run.events[e].name ?
			       m->run.events[e].name : "?");
		fputc('/', f);
		render_md_text(f, m->run.unit.abbrev);
		fputc(' ', f);
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
		if (!report_row_shown(o, i, &v->rows[i]))
			break;
		row(f, m, &v->rows[i], v->rows[i].name);
	}
	/* outside the total, as in diff */
	if (model_others_row(m) && v != &m->callers)
		row(f, m, model_others_row(m), MODEL_OTHER_TASKS);
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
		fputs("\n### Both sides\n\n", f);
		render_md_text(f, sd.title);
		fputs("\n\n| | local | remote |\n|---|--:|--:|\n", f);
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
		fputs("\n", f);
		render_md_text(f, sd.tops);
		fputs("\n\n", f);
		render_md_text(f, sd.note);
		fputs("\n", f);
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
	fputs("## perpkt report: ", f);
	if (run->workload_command) {
		render_md_code(f, run->workload_command);
		fputs(", per ", f);
		render_md_text(f, run->unit.name);
	} else {
		render_md_text(f, run->transport ? run->transport : "unknown");
		fputs(" over ", f);
		render_md_text(f, run->network ? run->network : "unknown");
		fprintf(f, ", %u-byte messages", run->message_size);
	}
	fputs("\n\n", f);
	if (s.headline) {
		fputs("**", f);
		render_md_text(f, s.headline);
		fputs("**\n\n", f);
	}
	for (i = 0; i < s.nwarnings; i++) {
		fputs("> **warning:** ", f);
		render_md_text(f, s.warnings[i]);
		fputs(i + 1 == s.nwarnings ? "\n\n" : "\n>\n", f);
	}
	for (i = 0; i < s.nfacts; i++) {
		fputs("- **", f);
		render_md_text(f, s.facts[i].key);
		fputs("**: ", f);
		render_md_text(f, s.facts[i].value);
		fputc('\n', f);
	}
	if (s.nconds) {
		fputs("\n<details><summary>conditions</summary>\n\n", f);
		for (i = 0; i < s.nconds; i++) {
			fputs("- ", f);
			render_md_code(f, s.conds[i].key);
			fputs(" = ", f);
			render_md_text(f, s.conds[i].value);
			fputc('\n', f);
		}
		if (s.nconds_hidden)
			fprintf(f, "- and %zu more (--all-conditions)\n",
				s.nconds_hidden);
		fputs("\n</details>\n", f);
	}
	fputs("\n### Latency decomposition\n\n", f);
	render_md_text(f, s.decomp_title);
	fputs("\n\n", f);
	if (s.ndecomp) {
		fputs("| part | per ", f);
		render_md_text(f, run->unit.abbrev);
		fputs(" | share |\n|---|--:|--:|\n", f);
		for (i = 0; i < s.ndecomp; i++) {
			fprintf(f, "| %s%s", s.decomp[i].flag ? "**!** " : "",
				s.decomp[i].indent ? "&nbsp;&nbsp;" : "");
			render_md_text(f, s.decomp[i].label);
			fputc(' ', f);
			cell(f, s.decomp[i].value);
			cell(f, s.decomp[i].share);
			fputs("|\n", f);
		}
	}
	fputs("\n### Reconciliation\n\n", f);
	for (i = 0; i < s.nrecon; i++) {
		fprintf(f, "- %s", s.recon[i].flag ? "**!** " : "");
		render_md_text(f, s.recon[i].label);
		fputc('\n', f);
	}
	if (s.empty) {
		fputs("\n", f);
		render_md_text(f, s.empty);
		fputs("\n", f);
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
		fputs("\nPer ", f);
		render_md_text(f, run->unit.name);
		fprintf(f, ": %.1f ", m->total.per_rt[0]);
		render_md_text(f, run->events[0].unit ? run->events[0].unit : "");
		fprintf(f, " in total, %.1f busy (without the %s bucket).\n",
			m->busy.per_rt[0], MODEL_IDLE_BUCKET);
		if (model_others_row(m))
			fprintf(f, "\n%s: the busy time of the tasks that are not the workload's, on the same CPUs, outside the total (--all-tasks gives their rows).\n",
				MODEL_OTHER_TASKS);
	}
	if (sides(f, m)) {
		summary_free(&s);
		return error("out of memory writing the report");
	}
	fputc('\n', f);
	for (i = 0; i < s.nnotes; i++) {
		fputs("> ", f);
		render_md_text(f, s.notes[i]);
		fputs("\n>\n", f);
	}
	summary_free(&s);
	if (fflush(f) || ferror(f))
		return error("cannot write report: %s", strerror(errno));
	return 0;
}
