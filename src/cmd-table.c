// SPDX-License-Identifier: GPL-2.0-only
/* perpkt table: profiles by repeat, like the threads' kernel tables. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "error.h"
#include "exitcode.h"
#include "reports/model.h"
#include "profile.h"
#include "sweep.h"
#include "symbolize/symbolize.h"
#include "symsource.h"
#include "reports/table.h"

#define MAX_TABLE_FILES 256

static const char table_usage[] =
"usage: perpkt table [options] FILE...\n"
"\n"
"One row per profile, one column per repeat (record --repeat), then the\n"
"average and the sample standard deviation.\n"
"\n"
"      --value V          latency (mean, default), latency-p50, total,\n"
"                         busy, bucket:NAME or function:NAME (per RT)\n"
"      --label L          label of the next row, in file order\n"
"                         (repeatable; default: kernel release, or the\n"
"                         file name when two share a release)\n"
"      --format FMT       text (default), markdown, csv or json\n"
"      --buckets FILE     bucket rules replacing the built-in ones\n"
"  -h, --help             show this help\n";

struct table_in {
	struct profile p;
	struct symbolizer *sym;
	struct model m;
	int have_p, have_m;
};

static int load(struct table_in *t, const char *path, const char *buckets)
{
	struct symsource src = { .buckets = buckets };

	if (profile_read(&t->p, path))
		return -1;
	t->have_p = 1;
	if (symsource_open(&t->sym, &src, &t->p, NULL) ||
	    model_build(&t->m, &t->p, t->sym))
		return -1;
	t->have_m = 1;
	return 0;
}

static void unload(struct table_in *t)
{
	if (t->have_m)
		model_free(&t->m);
	symbolizer_close(t->sym);
	if (t->have_p)
		profile_free(&t->p);
}

static char *file_label(const char *path)
{
	const char *b = strrchr(path, '/');
	size_t len;

	b = b ? b + 1 : path;
	len = strlen(b);
	if (len > 5 && !strcmp(b + len - 5, ".json"))
		len -= 5;
	return strndup(b, len);
}

static int shared_release(struct table_in *in, size_t n, size_t i)
{
	size_t j;

	for (j = 0; j < n; j++)
		if (j != i && in[j].p.kernel_release &&
		    !strcmp(in[j].p.kernel_release, in[i].p.kernel_release))
			return 1;
	return 0;
}

static int render(FILE *f, const struct table *t, const char *format)
{
	if (!strcmp(format, "markdown"))
		return table_markdown(f, t);
	if (!strcmp(format, "csv"))
		return table_csv(f, t);
	if (!strcmp(format, "json"))
		return table_json(f, t);
	return table_text(f, t);
}

int table_groups(const char *const *paths, const size_t *per_row,
		 const char *const *labels, size_t nrows, const char *value,
		 const char *format, const char *buckets)
{
	size_t n = 0, i;
	struct table_in *in;
	const struct model **models;
	int ret = RESULT_FAILURE;
	struct table t;

	for (i = 0; i < nrows; i++)
		n += per_row[i];
	in = calloc(n ? n : 1, sizeof(*in));
	models = calloc(n ? n : 1, sizeof(*models));
	memset(&t, 0, sizeof(t));
	if (!in || !models) {
		error("out of memory");
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (load(&in[i], paths[i], buckets))
			goto out;
		models[i] = &in[i].m;
	}
	if (table_build(&t, models, per_row, labels, nrows, value))
		goto out;
	if (!render(stdout, &t, format))
		ret = RESULT_OK;
out:
	table_free(&t);
	for (i = 0; in && i < n; i++)
		unload(&in[i]);
	free(models);
	free(in);
	return ret;
}

/* Labels as the usage says: --label, else release, else file name. */
int table_files(const char *const *paths, const char *const *labels,
		size_t n, const char *value, const char *format,
		const char *buckets)
{
	struct table_in *in = calloc(n ? n : 1, sizeof(*in));
	char **lab = calloc(n ? n : 1, sizeof(*lab));
	size_t *per_row = calloc(n ? n : 1, sizeof(*per_row));
	int ret = RESULT_FAILURE;
	size_t i;

	if (!in || !lab || !per_row) {
		error("out of memory");
		goto out;
	}
	/* only the release is needed here; the table reads them again */
	for (i = 0; i < n; i++) {
		if (profile_read(&in[i].p, paths[i]))
			goto out;
		in[i].have_p = 1;
	}
	for (i = 0; i < n; i++) {
		const char *rel = in[i].p.kernel_release;

		per_row[i] = 1;
		if (labels && labels[i])
			lab[i] = strdup(labels[i]);
		else if (rel && *rel && !shared_release(in, n, i))
			lab[i] = strdup(rel);
		else
			lab[i] = file_label(paths[i]);
		if (!lab[i]) {
			error("out of memory");
			goto out;
		}
	}
	ret = table_groups(paths, per_row, (const char *const *)lab, n,
			   value, format, buckets);
out:
	for (i = 0; in && i < n; i++)
		unload(&in[i]);
	for (i = 0; lab && i < n; i++)
		free(lab[i]);
	free(lab);
	free(per_row);
	free(in);
	return ret;
}

int cmd_table(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "value", required_argument, NULL, 1 },
		{ "label", required_argument, NULL, 2 },
		{ "format", required_argument, NULL, 3 },
		{ "buckets", required_argument, NULL, 4 },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *labels[MAX_TABLE_FILES] = { NULL };
	const char *value = "latency", *format = "text", *buckets = NULL;
	size_t nlabels = 0;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 1:
			if (table_value_check(optarg)) {
				error("unknown --value '%s' (use latency, latency-p50, total, busy, bucket:NAME or function:NAME)",
				      optarg);
				goto usage;
			}
			value = optarg;
			break;
		case 2:
			if (nlabels == MAX_TABLE_FILES) {
				error("too many --label: at most %d",
				      MAX_TABLE_FILES);
				goto usage;
			}
			labels[nlabels++] = optarg;
			break;
		case 3:
			if (strcmp(optarg, "text") && strcmp(optarg, "markdown") &&
			    strcmp(optarg, "csv") && strcmp(optarg, "json")) {
				error("unknown format '%s' (use text, markdown, csv or json)",
				      optarg);
				goto usage;
			}
			format = optarg;
			break;
		case 4:
			buckets = optarg;
			break;
		case 'h':
			fputs(table_usage, stdout);
			return RESULT_OK;
		default:
			goto usage;
		}
	}
	if (optind >= argc) {
		error("table needs at least one profile");
		goto usage;
	}
	if (argc - optind > MAX_TABLE_FILES) {
		error("table takes at most %d profiles", MAX_TABLE_FILES);
		goto usage;
	}
	if (nlabels > (size_t)(argc - optind)) {
		error("%zu --label given for %d profiles", nlabels,
		      argc - optind);
		goto usage;
	}
	return table_files((const char *const *)argv + optind, labels,
			   argc - optind, value, format, buckets);
usage:
	fputs(table_usage, stderr);
	return RESULT_USAGE;
}
