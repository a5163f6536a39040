/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_RECORD_OPTIONS_H
#define PERPKT_RECORD_OPTIONS_H

#include "commands/commands.h"
#include "commands/options.h"
#include "record/record.h"

/*
 * The options of record and stat, as option tables (commands/options.h)
 * both commands include: the workload's and --kernel's. Where each
 * goes under --kernel (the host's, the guest's) and whether only the
 * built-in ping-pong takes it are flags in its entry (OPTF_*).
 */
extern const struct opt record_workload_opts[];
extern const struct opt record_kernel_opts[];
/* What record samples and where it goes, which stat refuses by name */
extern const struct opt record_sampling_opts[];
/* -q and -v into o->quiet and o->verbose, applied when the command
 * runs (record_apply_verbosity), not when sweep checks a cell */
#define RECORD_VERBOSITY() \
	OPT_BOOL('q', "quiet", OPT_AT(struct record_options, quiet), \
		 QUIET_HELP), \
	OPT_BOOL('v', "verbose", OPT_AT(struct record_options, verbose), \
		 VERBOSE_HELP)
/* -r into a struct window_request (o->num: whether it counts as given,
 * record's default windows) and -C into a struct cpu_request, for the
 * tables of record and stat, whose help differs */
int opt_repeat(const struct opt *o, const char *arg, void *at);
int opt_cpus(const struct opt *o, const char *arg, void *at);
/* usage.seen of record and stat: the first OPTF_BUILTIN option into
 * o->builtin_only; args is the struct record_options */
void record_option_seen(const struct opt *o, void *args);

/* commands/record-options.c */
void record_defaults(struct record_options *o);
/* record's usage line, for its usage errors */
extern const struct opt_usage record_usage;
/* record's whole command line; sweep checks its cells with it. *help
 * set after -h printed the help. -1 after printing why (no usage). */
int record_parse_args(int argc, char **argv, struct record_options *o,
		      int *help);
/*
 * record --kernel: the arguments of the `perpkt record` the guest runs
 * into o->kernel.guest_args: argv (record's or stat's command line,
 * read again with its own table opts, so getopt's abbreviations and
 * --opt=value are read as the command read them) less the host's
 * options (OPTF_HOST*), each option named in full. -1 after printing
 * why (out of memory).
 */
int record_guest_args(struct record_options *o, int argc, char **argv,
		      const struct opt *opts);
/* record_guest_args for record's command line, with record's table. */
int record_guest_argv(struct record_options *o, int argc, char **argv);
/* Free o->kernel.guest_args. */
void record_guest_args_free(struct record_options *o);
/* -q/-v set the process's message level: when the command runs, not
 * when sweep checks a cell's arguments. */
void record_apply_verbosity(const struct record_options *o);

/* commands/record-check.c: the options together, once all are read;
 * each -1 after printing why */
/* --kernel DIR and --peer-kernel DIR: a built tree gives the image and,
 * unless given, its vmlinux, .config and modules (lab/kernel-tree.h).
 * After the options are checked; -1 after printing what the tree lacks. */
int record_open_trees(struct record_options *o);
/* The words from argv[next] on are -- CMD; then options that exclude
 * each other. */
int record_check_options(struct record_options *o, int argc, char **argv,
			 int next);
/* record's own: --no-remote, --between, the FIFOs, --window-marks,
 * --restart against the rest */
int record_check_record(struct record_options *o);
/* record's windows when -r is not given: where the built-in ping-pong
 * runs here (no guest, peer, echo, command or -n), RECORD_DEFAULT_WINDOWS
 * windows sharing -d, restarted before each on loopback, so that a
 * profile measures its own spread; else one. --restart's warm-up.
 * -1 after printing what --restart cannot go with. */
#define RECORD_DEFAULT_WINDOWS 5
int record_default_windows(struct record_options *o);
/* The kernel options together, and against the workload's (--irq-cpu
 * and --rps-cpus name the guest's CPUs); sets kernel.one_cpu. */
int record_check_kernel(struct record_options *o);

#endif
