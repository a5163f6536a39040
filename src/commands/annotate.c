// SPDX-License-Identifier: GPL-2.0-only
/* perpkt annotate: one function, source line by source line, per round trip. */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/commands.h"
#include "commands/symsource.h"
#include "error.h"
#include "exitcode.h"
#include "parse.h"
#include "profile/profile.h"
#include "reports/model.h"
#include "reports/render.h"
#include "symbolize/symbolize.h"

static const char annotate_usage[] =
"usage: perpkt annotate [options] FUNCTION\n"
"\n"
"One kernel function source line by source line, as perf annotate\n"
"--stdio and opannotate give it but per round trip (or --per unit):\n"
"each line of FUNCTION with its cost (sampled time, cycles, or exact\n"
"instructions), its share of the function, and the code inlined there\n"
"below it (file:line in the inlined function, and the chain of calls).\n"
"Needs the kernel's DWARF: --vmlinux, or the one the profile names.\n"
"\n"
"  -i, --input FILE       profile to read (default perpkt.json)\n"
"      --format FMT       text (default) or json\n"
"      --vmlinux FILE     the kernel's vmlinux (its -dbg package)\n"
"      --force            accept a vmlinux whose build-id differs\n"
"      --source DIR       the kernel source tree: show each line's text\n"
"      --width N          text width (default 72)\n"
VERBOSITY_HELP
"  -h, --help             show this help\n";

struct annotate_args {
	const char *input, *format, *function, *source;
	struct symsource src;
	int width;
	int help;
};

static int parse_args(int argc, char **argv, struct annotate_args *a)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "format", required_argument, NULL, 1 },
		{ "vmlinux", required_argument, NULL, 2 },
		{ "force", no_argument, NULL, 3 },
		{ "source", required_argument, NULL, 4 },
		{ "width", required_argument, NULL, 5 },
		VERBOSITY_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	uint64_t v;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "i:hqv", longopts, NULL)) != -1) {
		if (parse_verbosity(c))
			continue;
		switch (c) {
		case 'i':
			a->input = optarg;
			break;
		case 1:
			if (strcmp(optarg, "text") && strcmp(optarg, "json"))
				return error("unknown --format '%s' (use text or json)",
					     optarg);
			a->format = optarg;
			break;
		case 2:
			a->src.vmlinux = optarg;
			break;
		case 3:
			a->src.force = 1;
			break;
		case 4:
			a->source = optarg;
			break;
		case 5:
			if (parse_u64(optarg, "--width", 60, 1000, &v))
				return -1;
			a->width = (int)v;
			break;
		case 'h':
			a->help = 1;
			return 0;
		default:
			return -1;
		}
	}
	if (argc - optind != 1)
		return error("annotate takes one function name, e.g. perpkt annotate udp_sendmsg");
	a->function = argv[optind];
	return 0;
}

/* One line of the function: its own code and what was inlined there. */
struct aline {
	int line;
	double per_rt, own;
	uint64_t samples;
	const struct model_row **inl;
	size_t ninl;
};

struct annotation {
	const struct model *m;
	const char *function, *file;
	struct aline *lines;
	size_t n;
	double total;
	uint64_t samples;
};

static int cmp_aline(const void *a, const void *b)
{
	const struct aline *x = a, *y = b;

	return (x->line > y->line) - (x->line < y->line);
}

static int collect(struct annotation *an)
{
	const struct model_view *v = &an->m->views[MODEL_BY_LINE];
	size_t i, k;

	an->lines = calloc(v->n ? v->n : 1, sizeof(*an->lines));
	if (!an->lines)
		return error("out of memory");
	for (i = 0; i < v->n; i++) {
		const struct model_row *r = &v->rows[i];
		struct aline *l = NULL;

		for (k = 0; k < an->n; k++)
			if (an->lines[k].line == r->function_line)
				l = &an->lines[k];
		if (!l) {
			l = &an->lines[an->n++];
			l->line = r->function_line;
		}
		l->per_rt += r->per_rt[0];
		l->samples += r->samples[0];
		an->total += r->per_rt[0];
		an->samples += r->samples[0];
		if (!r->inlined) {
			l->own += r->per_rt[0];
			if (!an->file)
				an->file = r->file;
			continue;
		}
		l->inl = realloc(l->inl, (l->ninl + 1) * sizeof(*l->inl));
		if (!l->inl)
			return error("out of memory");
		l->inl[l->ninl++] = r;  /* in the view's order: costliest first */
	}
	qsort(an->lines, an->n, sizeof(*an->lines), cmp_aline);
	return 0;
}

/* Line `line` of `file` under the source tree, without its newline;
 * malloc'd, NULL when it cannot be read. */
static char *source_line(const char *dir, const char *file, int line)
{
	char path[4096], *buf = NULL;
	size_t cap = 0;
	FILE *f;
	int n = 0;

	if (!dir || !file)
		return NULL;
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	while (getline(&buf, &cap, f) >= 0)
		if (++n == line) {
			buf[strcspn(buf, "\n")] = '\0';
			fclose(f);
			return buf;
		}
	free(buf);
	fclose(f);
	return NULL;
}

static const char *unit_of(const struct model *m)
{
	return m->run.nevents && m->run.events[0].unit ? m->run.events[0].unit : "events";
}

static int put_text(const struct annotation *an, const struct annotate_args *a)
{
	const struct model *m = an->m;
	int width = a->width ? a->width : 72;
	size_t i, k;

	printf("perpkt annotate: %s (%s), kernel %s\n", an->function,
	       an->file ? an->file : "file unknown",
	       m->run.kernel_release ? m->run.kernel_release : "unknown");
	printf("%s: %.1f %s per %s, %llu %s, %.1f%% of the kernel's\n",
	       m->run.nevents ? m->run.events[0].name : "?", an->total, unit_of(m),
	       m->run.unit.name, (unsigned long long)an->samples,
	       m->run.exact ? "instructions counted" : "samples",
	       m->total.per_rt[0] > 0 ? 100 * an->total / m->total.per_rt[0] : 0);
	printf("\n%6s %10s %6s  %s\n", "line", unit_of(m), "share",
	       a->source ? "source; code inlined there" : "code inlined there");
	for (i = 0; i < an->n; i++) {
		const struct aline *l = &an->lines[i];
		char *text = source_line(a->source, an->file, l->line);

		printf("%6d %10.1f %5.1f%%  %.*s\n", l->line, l->per_rt,
		       an->total > 0 ? 100 * l->per_rt / an->total : 0,
		       width - 27, text ? text : "");
		free(text);
		for (k = 0; k < l->ninl; k++)
			printf("%6s %10.1f %6s    %s\n", "", l->inl[k]->per_rt[0], "",
			       l->inl[k]->name);
	}
	printf("\nEach line of %s holds its own code and, indented below it,\n"
	       "the code inlined at that line (file:line inside the inlined\n"
	       "function, then the calls out to %s); a line's value is both.\n",
	       an->function, an->function);
	if (fflush(stdout) || ferror(stdout))
		return error("cannot write: %s", strerror(errno));
	return 0;
}

static int put_json(const struct annotation *an, const struct annotate_args *a)
{
	const struct model *m = an->m;
	json_t *root = json_object(), *lines = json_array();
	size_t i, k;
	int ret;

	json_object_set_new(root, "format", json_string("perpkt-annotate"));
	json_object_set_new(root, "version", json_integer(1));
	json_object_set_new(root, "function", json_string(an->function));
	json_object_set_new(root, "file", an->file ? json_string(an->file) : json_null());
	json_object_set_new(root, "kernel_release", m->run.kernel_release ?
			    json_string(m->run.kernel_release) : json_null());
	json_object_set_new(root, "event", json_string(m->run.nevents ?
						       m->run.events[0].name : "?"));
	json_object_set_new(root, "unit", json_string(unit_of(m)));
	json_object_set_new(root, "per", json_string(m->run.unit.name));
	json_object_set_new(root, "exact", json_boolean(m->run.exact));
	json_object_set_new(root, "per_rt", json_real(an->total));
	json_object_set_new(root, "samples", json_integer((json_int_t)an->samples));
	json_object_set_new(root, "kernel_share", json_real(m->total.per_rt[0] > 0 ?
					an->total / m->total.per_rt[0] : 0));
	for (i = 0; i < an->n; i++) {
		const struct aline *l = &an->lines[i];
		json_t *o = json_object(), *inl = json_array();
		char *text = source_line(a->source, an->file, l->line);

		json_object_set_new(o, "line", json_integer(l->line));
		json_object_set_new(o, "per_rt", json_real(l->per_rt));
		json_object_set_new(o, "own_per_rt", json_real(l->own));
		json_object_set_new(o, "share", json_real(an->total > 0 ?
							 l->per_rt / an->total : 0));
		json_object_set_new(o, "samples", json_integer((json_int_t)l->samples));
		json_object_set_new(o, "source", text ? json_string(text) : json_null());
		free(text);
		for (k = 0; k < l->ninl; k++) {
			const struct model_row *r = l->inl[k];
			json_t *x = json_object();

			json_object_set_new(x, "name", json_string(r->name));
			json_object_set_new(x, "function", json_string(r->function));
			json_object_set_new(x, "file", json_string(r->file));
			json_object_set_new(x, "line", json_integer(r->line));
			json_object_set_new(x, "chain", json_string(r->inlined));
			json_object_set_new(x, "per_rt", json_real(r->per_rt[0]));
			json_object_set_new(x, "samples", json_integer((json_int_t)r->samples[0]));
			json_array_append_new(inl, x);
		}
		json_object_set_new(o, "inlined", inl);
		json_array_append_new(lines, o);
	}
	json_object_set_new(root, "lines", lines);
	ret = json_dumpf(root, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
	json_decref(root);
	if (ret || fputc('\n', stdout) == EOF || fflush(stdout) || ferror(stdout))
		return error("cannot write JSON: %s", strerror(errno));
	return 0;
}

int cmd_annotate(int argc, char **argv)
{
	struct annotate_args a = { .input = "perpkt.json", .format = "text" };
	struct annotation an = { 0 };
	struct symbolizer *sym = NULL;
	struct profile p;
	struct model m;
	int ret = RESULT_FAILURE, have_m = 0;
	size_t i;

	if (parse_args(argc, argv, &a)) {
		help_error(annotate_usage, NULL);
		return RESULT_USAGE;
	}
	if (a.help) {
		help_show(annotate_usage, NULL);
		return RESULT_OK;
	}
	if (profile_read_force(&p, a.input, a.src.force))
		return RESULT_FAILURE;
	if (symsource_open(&sym, &a.src, &p, NULL) || model_build(&m, &p, sym))
		goto out;
	have_m = 1;
	symsource_print_warnings(sym);
	if (model_lines(&m, sym, a.function))
		goto out;
	an.m = &m;
	an.function = a.function;
	if (collect(&an))
		goto out;
	if (!an.n) {
		error("no %s of '%s' in '%s' with a source line: is it the function's name as report shows it?",
		      m.run.exact ? "instructions" : "samples", a.function, a.input);
		goto out;
	}
	if (!(strcmp(a.format, "json") ? put_text(&an, &a) : put_json(&an, &a)))
		ret = RESULT_OK;
out:
	for (i = 0; i < an.n; i++)
		free(an.lines[i].inl);
	free(an.lines);
	if (have_m)
		model_free(&m);
	symbolizer_close(sym);
	profile_free(&p);
	return ret;
}
