/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_COMMANDS_H
#define PERPKT_COMMANDS_H

/* Each returns an enum result (exitcode.h), never an exit code: main()
 * maps it. argv[0] is the command name. */
struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_resolve(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_table(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_restore(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_annotate(int argc, char **argv);

/* The help of --force-output, which record and merge both take (what
 * -o refuses: profile/output.h). */
#define FORCE_OUTPUT_HELP \
	"write into a file or FIFO another user owns,\n" \
	"or a FIFO others may read (refused by default,\n" \
	"as fs.protected_regular and protected_fifos\n" \
	"would: the profile holds kernel addresses)"

#endif
