// SPDX-License-Identifier: GPL-2.0-only
/*
 * perpkt: where did the time of one packet round trip go, inside the
 * kernel? Subcommands are dispatched from the table below.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/commands.h"
#include "error.h"
#include "exitcode.h"
#include "reports/render/render.h"

/*
 * To add a command: write src/commands/<name>.c with
 *   int cmd_<name>(int argc, char **argv)
 * returning an enum result (src/exitcode.h), declare it in
 * src/commands/commands.h, add it below with its one-line summary, and
 * document it in docs/perpkt.1 (docs/HACKING.md, "Add a command").
 */
static const struct command commands[] = {
	{ "record", cmd_record, "run the workload and sample the kernel, save a profile" },
	{ "report", cmd_report, "per-round-trip tables from a profile" },
	{ "resolve", cmd_resolve, "kernel address to function, file:line, inlines, bucket" },
	{ "stat", cmd_stat, "count only: cycles, switches, IRQs, CPU time per round trip" },
	{ "serve", cmd_serve, "responder for 'record --peer' runs between two hosts" },
	{ "diff", cmd_diff, "compare profiles per round trip, with significance" },
	{ "annotate", cmd_annotate, "one function source line by source line, per round trip" },
	{ "table", cmd_table, "one row per profile, one column per repeat, mean, sd" },
	{ "sweep", cmd_sweep, "record a matrix of configurations, print the table" },
	{ "restore", cmd_restore, "put back what killed runs left changed" },
	{ "merge", cmd_merge, "runs of one configuration as one profile, a repeat each" },
};

/* The command list, written to f (a memory stream, then help_*()). */
static void list_commands(FILE *f)
{
	size_t i;

	fprintf(f, "usage: perpkt [--version] [--help] <command> [<args>]\n\n"
		   "Where did the time of one packet round trip go, inside the kernel?\n\n"
		   "commands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'perpkt <command> --help' shows a command's options.\n"
		   "exit codes: 0 ok, 1 partial result (interrupted or samples lost),\n"
		   "2 failure, 64 usage error.\n");
}

static void usage(int to_stdout)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f) {
		error("out of memory");
		return;
	}
	list_commands(f);
	if (fclose(f) == 0) {
		if (to_stdout)
			help_show(text, NULL);
		else
			help_error(text, NULL);
	}
	free(text);
}

/* The one place a result becomes an exit code. */
static int exit_code(int result)
{
	static const int code[] = {
		[RESULT_OK] = PERPKT_EXIT_OK,
		[RESULT_PARTIAL] = PERPKT_EXIT_PARTIAL,
		[RESULT_FAILURE] = PERPKT_EXIT_FAILURE,
		[RESULT_USAGE] = PERPKT_EXIT_USAGE,
		[RESULT_MET] = PERPKT_EXIT_MET,
	};
	int r = result & ~RESULT_BISECT;
	int c = r >= 0 && r < (int)(sizeof(code) / sizeof(code[0])) ?
		code[r] : PERPKT_EXIT_FAILURE;

	/* under diff --fail-if an error stops `git bisect run` */
	if ((result & RESULT_BISECT) && r != RESULT_OK && r != RESULT_MET)
		return PERPKT_EXIT_BISECT_BASE + c;
	return c;
}

/* A full disk or closed pipe on stdout is a failure, not a success. */
static int finish_stdout(int result)
{
	if (fflush(stdout) || ferror(stdout)) {
		error("cannot write to standard output");
		result = (result & RESULT_BISECT) | RESULT_FAILURE;
	}
	return exit_code(result);
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(0);
		return exit_code(RESULT_USAGE);
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(1);
		return finish_stdout(RESULT_OK);
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		help_show("perpkt " PERPKT_VERSION "\n", NULL);
		return finish_stdout(RESULT_OK);
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return finish_stdout(commands[i].fn(argc - 1, argv + 1));
	error("unknown command '%s'", argv[1]);
	usage(0);
	return exit_code(RESULT_USAGE);
}
