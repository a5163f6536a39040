// SPDX-License-Identifier: GPL-2.0-only
/*
 * One guest's run, for lab-record.c and lab-nic.c alike: its folder and
 * initramfs, QEMU's command line for it, why a boot failed, its profile
 * collected and checked, its conditions, the files freed.
 */
#include "lab/run.h"

#include <errno.h>
#include <libgen.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "exitcode.h"
#include "lab/channel.h"
#include "lab/exact-counts.h"
#include "lab/guest.h"
#include "lab/content-hash.h"
#include "lab/kallsyms-cache.h"
#include "lab/kconfig.h"
#include "lab/leftovers.h"
#include "lab/plugin/cachemodel.h"
#include "lab/qemu.h"
#include "system/conditions.h"
#include "system/procfile.h"
#include "profile/merge.h"
#include "profile/profile.h"
#include "symbolize/symbolize.h"

#define LAB_UP_TIMEOUT_S 60

static void path_in(char *out, size_t len, const struct lab_run *r,
		    const char *name)
{
	snprintf(out, len, "%s/%s", r->dir, name);
}

int lab_console_has(const char *path, const char *mark)
{
	char *text = procfile_read(path);
	int found;

	if (!text)
		return 0;
	found = strstr(text, mark) != NULL;
	free(text);
	return found;
}

/* Why the boot ended before the profile came out, with the console's
 * tail (or QEMU's own messages when the kernel never started). */
int lab_run_failed(struct lab_run *r, const struct lab_request *rq,
		   const struct lab_qemu *q, enum lab_qemu_end end, int status)
{
	int up = lab_console_has(r->console, LAB_GUEST_UP_MARK);
	double timeout = q->up_timeout_s > 0 && q->up_s < 0 ? q->up_timeout_s :
			 q->timeout_s;
	char how[400], what[128], none[128];

	if (end == LAB_QEMU_INTERRUPTED)
		return error("interrupted: guest stopped");
	if (lab_accel_boot_ended(&r->accel, q, end, status))
		return LAB_BOOT_KVM_FAILED;
	if (end == LAB_QEMU_STALLED)
		snprintf(how, sizeof(how), "was stopped: %s", q->stalled);
	else if (WIFSIGNALED(status))
		snprintf(how, sizeof(how), "was killed by signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(how, sizeof(how), "exited with status %d",
			 WEXITSTATUS(status));
	snprintf(what, sizeof(what), "%s said", r->arch->qemu);
	snprintf(none, sizeof(none), "%s said nothing", r->arch->qemu);
	lab_print_tail(what, none, r->log, 8);
	snprintf(what, sizeof(what), "guest console (%s), last lines",
		 r->arch->console);
	snprintf(none, sizeof(none), "guest console (%s): nothing, the kernel printed no line",
		 r->arch->console);
	lab_print_tail(what, none, r->console, 20);
	if (end == LAB_QEMU_TIMEOUT && !up) {
		error("kernel '%s' did not boot to /init within %.0f s under %s: stopped (give more with --qemu-timeout)",
		      rq->kernel, timeout, lab_accel_name(&r->accel));
		return LAB_BOOT_STALLED;
	}
	if (end == LAB_QEMU_TIMEOUT) {
		error("kernel '%s' booted but the guest did not finish within %.0f s: stopped (give more with --qemu-timeout)",
		      rq->kernel, timeout);
		/* perpkt's own limit (90 s and twice the run) is far more
		 * than the run needs: a guest past it has stalled, as one
		 * did at host load 3.3 (two CPU hogs beside the tests) */
		return rq->qemu_timeout > 0 ? -1 : LAB_BOOT_STALLED;
	}
	if (!up)
		return error("kernel '%s' did not boot to /init under %s (%s %s): see its messages above",
			     rq->kernel, lab_accel_name(&r->accel), r->arch->qemu, how);
	return error("the guest stopped before sending its files out on %s (%s %s)",
		     r->arch->data_port, r->arch->qemu, how);
}

/* On the instruction clock an x86 kernel's SMP bring-up hangs (the
 * second CPU waits for its callout in wait_for_master_cpu while the
 * first spins in do_boot_cpu's loop, QEMU 7.2): the kernel boots on one
 * CPU and the guest brings the others online after /init, which works
 * and stays deterministic (checked 2026-12-03, 6.1, 2 vCPUs). */
static int late_cpus(const struct lab_run *r, const struct lab_request *rq)
{
	return r->icount_shift >= 0 && lab_guest_cpus(rq) > 1;
}

void lab_run_qemu(struct lab_run *r, const struct lab_request *rq,
		  const struct lab_job *job, struct lab_qemu *q,
		  char **extra, size_t nextra)
{
	char **argv;
	size_t i, len = 0;

	memset(q, 0, sizeof(*q));
	q->arch = r->arch, q->kernel = rq->kernel, q->initrd = r->initrd;
	q->console = r->console, q->data = r->data, q->log = r->log;
	q->extra = extra, q->nextra = nextra;
	q->cpus = lab_guest_cpus(rq);
	q->icount_shift = r->icount_shift;
	lab_accel_apply(&r->accel, q);
	q->mem_mb = 1024;
	q->interrupted = job->interrupted, q->up_mark = LAB_GUEST_UP_MARK;
	if (r->plugin) {
		/* one counts file per boot; nokaslr: the same addresses in
		 * every boot, so their windows add up */
		snprintf(r->counts, sizeof(r->counts), "%s/counts-%d.txt", r->dir,
			 r->boot);
		snprintf(r->plugin_arg, sizeof(r->plugin_arg), "file=%s,out=%s,paths=%d",
			 r->plugin, r->counts, !rq->no_paths);
		if (rq->cache_model) {
			struct cachemodel_geometry g;
			char why[512], spec[256];

			/* checked when read; '/' for the commas QEMU parts on */
			if (!cachemodel_parse(rq->cache_model, &g, why, sizeof(why))) {
				cachemodel_spec(&g, spec, sizeof(spec));
				snprintf(r->plugin_arg + strlen(r->plugin_arg),
					 sizeof(r->plugin_arg) - strlen(r->plugin_arg),
					 ",cache=%s", spec);
			}
		}
		q->plugin = r->plugin_arg;
	}
	/* QEMU takes one -append: perpkt's own first, the user's after
	 * (the kernel lets a later option win) */
	snprintf(r->append, sizeof(r->append), "%s%s%s%s", r->plugin ? "nokaslr" : "",
		 late_cpus(r, rq) ? " maxcpus=1" : "",
		 r->plugin && rq->append ? " " : "", rq->append ? rq->append : "");
	q->append = r->append[0] ? r->append : NULL;
	/* boot in seconds, the windows at TCG's pace, and the reply */
	q->timeout_s = rq->qemu_timeout > 0 ? rq->qemu_timeout :
		90 + 2 * job->run_s + (job->counted ? 120 : 0);
	/* /init comes after 3-15 s here, even on a loaded host; a guest
	 * not there after a minute has stalled in early boot */
	if (rq->qemu_timeout <= 0)
		q->up_timeout_s = LAB_UP_TIMEOUT_S;
	/* the cache model calls the plugin at every memory access: boot
	 * 4.7 times as long here, the window 2.2 times (bench-exact at
	 * load 8.6: 64 host seconds a guest second); at load 20-45 a
	 * -d 0.5 run missed both bounds above */
	if (rq->cache_model && rq->qemu_timeout <= 0) {
		q->timeout_s = 4 * q->timeout_s + 300 * job->run_s;
		q->up_timeout_s = 4 * LAB_UP_TIMEOUT_S;
	}
	argv = lab_qemu_argv(q);
	for (i = 0; argv && argv[i]; i++)
		len += strlen(argv[i]) + 1;
	free(r->qemu_command);
	r->qemu_command = calloc(1, len + 1);
	for (i = 0; r->qemu_command && argv && argv[i]; i++)
		strcat(strcat(r->qemu_command, i ? " " : ""), argv[i]);
	lab_qemu_argv_free(argv);
}

char *lab_run_read(const struct lab_run *r, const char *name)
{
	char path[4300];

	snprintf(path, sizeof(path), "%s/%s", r->out, name);
	return procfile_read(path);
}

/* The guest perpkt's messages, as if it had run here: "wrote
 * '/tmp/profile.json'" is about the guest's copy, the host's file then,
 * or for stat (job->keep: no file) the line goes. */
/* In exact mode the guest only marks its window: its "counting
 * cpu-clock on CPU 0" and "0 samples" are not what the host measures. */
static void relay_line(const struct lab_run *r, const char *line, int len)
{
	static const char counting[] = "perpkt: counting cpu-clock on CPU ";
	const char *at;

	if (r->plugin && len > (int)sizeof(counting) &&
	    !strncmp(line, counting, sizeof(counting) - 1) &&
	    (at = memmem(line, (size_t)len, " for ", 5))) {
		fprintf(stderr, "perpkt: counting instructions with the TCG plugin on %s%.*s",
			r->cpus == 1 ? "the one vCPU" : "every vCPU",
			(int)(line + len - at), at);
		return;
	}
	at = r->plugin ? memmem(line, (size_t)len, "; 0 samples", 11) : NULL;
	if (at)
		fprintf(stderr, "%.*s%.*s", (int)(at - line), line,
			(int)(line + len - at - 11), at + 11);
	else
		fprintf(stderr, "%.*s", len, line);
}

static void relay_stderr(const struct lab_run *r, const struct lab_job *job)
{
	char *text = lab_run_read(r, LAB_GUEST_STDERR), *line, *next, *at;
	static const char guest_path[] = "/tmp/" LAB_GUEST_PROFILE;
	char buf[8192];

	for (line = text; line && *line; line = next) {
		next = line + strcspn(line, "\n");
		next += *next == '\n';
		at = strstr(line, guest_path);
		if (at && at >= next)
			at = NULL;
		if (at && job->keep)
			continue;
		if (at)
			snprintf(buf, sizeof(buf), "%.*s%s%.*s", (int)(at - line), line,
				 job->output, (int)(next - at - (int)strlen(guest_path)),
				 at + strlen(guest_path));
		else
			snprintf(buf, sizeof(buf), "%.*s", (int)(next - line), line);
		relay_line(r, buf, (int)strlen(buf));
	}
	free(text);
}

static void add_conditions(struct profile *p, const struct lab_run *r,
			   const struct lab_request *rq)
{
	char buf[64];

	profile_add_condition(p, LAB_COND_ACCEL, r->accel.text);
	profile_add_condition(p, LAB_COND_QEMU, r->qemu_version);
	profile_add_condition(p, LAB_COND_COMMAND,
			      r->qemu_command ? r->qemu_command : "unknown");
	profile_add_condition(p, LAB_COND_KERNEL, rq->kernel);
	profile_add_condition(p, LAB_COND_KERNEL_HASH, r->kernel_hash);
	if (rq->tree) {
		profile_add_condition(p, LAB_COND_TREE, rq->tree->dir);
		profile_add_condition(p, LAB_COND_COMMIT, rq->tree->commit[0] ?
				      rq->tree->commit : "unknown (not a git tree)");
	}
	snprintf(buf, sizeof(buf), "%d", lab_guest_cpus(rq));
	profile_add_condition(p, LAB_COND_CPUS, buf);
	profile_add_condition(p, LAB_COND_DETERMINISTIC, r->clock);
	profile_add_condition(p, LAB_COND_GUEST_PERPKT, r->guest_perpkt);
	if (rq->append)
		profile_add_condition(p, LAB_COND_APPEND, rq->append);
	profile_add_condition(p, LAB_COND_CONFIG, r->config[0] ? r->config :
			      "none found (not checked)");
	if (rq->vmlinux) {
		char *abs = realpath(rq->vmlinux, NULL);

		profile_add_condition(p, LAB_COND_VMLINUX, abs ? abs : rq->vmlinux);
		free(abs);
	}
	snprintf(buf, sizeof(buf), "%.2f", r->up_s);
	profile_add_condition(p, LAB_COND_BOOT, buf);
	snprintf(buf, sizeof(buf), "%.2f", r->boot_s);
	profile_add_condition(p, LAB_COND_GUEST_BOOT, buf);
	snprintf(buf, sizeof(buf), "%.1f", r->walls_s);
	profile_add_condition(p, LAB_COND_WALL, buf);
	if (r->boot > 1) {
		snprintf(buf, sizeof(buf), "%d", r->boot);
		profile_add_condition(p, LAB_COND_BOOTS, buf);
	}
}

/* The guest's build-id (its /sys/kernel/notes, also in the profile)
 * must be the vmlinux's, or its DWARF describes another kernel. */
static int check_vmlinux(const struct profile *p, const char *vmlinux)
{
	char *id = symbolizer_file_build_id(vmlinux);
	int ret = 0;

	if (!id)
		return error("'%s' has no build-id: is it a vmlinux?", vmlinux);
	if (!p->build_id)
		ret = error("the guest kernel gave no build-id (/sys/kernel/notes): '%s' cannot be checked against it",
			    vmlinux);
	else if (strcasecmp(id, p->build_id))
		ret = error("build-id mismatch: the guest kernel is %s but '%s' is %s: give the vmlinux of '%s' (its -dbg package)",
			    p->build_id, vmlinux, id, p->kernel_release);
	free(id);
	return ret;
}

/* The guest's /sys/kernel/notes, brought out beside the profile, say
 * which kernel ran: the profile's build-id must be that one. */
static int check_notes(const struct lab_run *r, struct profile *p)
{
	char path[4300], *id;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/%s", r->out, LAB_GUEST_NOTES);
	id = symbolizer_notes_build_id(path);
	if (!id)
		return 0;
	if (!p->build_id)
		p->build_id = strdup(id);
	else if (strcasecmp(id, p->build_id))
		ret = error("the guest's /sys/kernel/notes say build-id %s but its profile says %s",
			    id, p->build_id);
	free(id);
	return ret;
}

int lab_run_fold_exact(const struct lab_run *r, struct profile *p)
{
	char kallsyms[4300], gz[4300], modules[4300];
	struct lab_exact x;
	int ret;

	snprintf(gz, sizeof(gz), "%s/%s", r->out, LAB_GUEST_KALLSYMS);
	snprintf(kallsyms, sizeof(kallsyms), "%s/kallsyms", r->out);
	snprintf(modules, sizeof(modules), "%s/%s", r->out, LAB_GUEST_MODULES);
	if (!access(gz, F_OK) && r->kallsyms_key[0])
		lab_kallsyms_store(r->kallsyms_key, gz, modules);
	else if (access(gz, F_OK) && r->known)
		snprintf(gz, sizeof(gz), "%s", r->known_gz);  /* the guest's matched */
	if (lab_gunzip(gz, kallsyms) || lab_exact_read(r->counts, &x))
		return -1;
	ret = lab_exact_fold(p, &x, kallsyms, modules);
	lab_exact_free(&x);
	/* the guest left these to the host (conditions_capture) */
	if (!ret)
		conditions_kernel_files(p, kallsyms, r->config[0] ? r->config : NULL);
	return ret;
}

/* The profile the guest brought out of this boot, checked, into p; the
 * guest's exit status as an enum result, RESULT_FAILURE when there is
 * no profile. */
int lab_run_collect(struct lab_run *r, const struct lab_request *rq,
		    const struct lab_job *job, struct profile *p)
{
	char *text, path[4300];
	int guest_rc;

	memset(p, 0, sizeof(*p));
	text = lab_run_read(r, LAB_GUEST_ERROR);
	if (text) {
		text[strcspn(text, "\n")] = '\0';
		error("%s", text);
		free(text);
		return RESULT_FAILURE;
	}
	text = lab_run_read(r, LAB_GUEST_UPTIME);
	if (text && r->boot == 0)
		sscanf(text, "%lf %lf", &r->boot_s, &r->end_s);
	free(text);
	text = lab_run_read(r, LAB_GUEST_RC);
	guest_rc = text ? atoi(text) : PERPKT_EXIT_FAILURE;
	free(text);
	if (!job->quiet || guest_rc)
		relay_stderr(r, job);
	snprintf(path, sizeof(path), "%s/%s", r->out, LAB_GUEST_PROFILE);
	if (access(path, R_OK)) {
		error("perpkt in the guest wrote no profile (exit %d): its messages are above",
		      guest_rc);
		return RESULT_FAILURE;
	}
	if (profile_read(p, path))
		return RESULT_FAILURE;
	if (check_notes(r, p) || (rq->vmlinux && check_vmlinux(p, rq->vmlinux)) ||
	    (r->plugin && lab_run_fold_exact(r, p))) {
		profile_free(p);
		return RESULT_FAILURE;
	}
	/* the guest's exit status back to a result, for main() to map */
	return guest_rc == PERPKT_EXIT_OK ? RESULT_OK :
	       guest_rc == PERPKT_EXIT_PARTIAL ? RESULT_PARTIAL : RESULT_FAILURE;
}

/* How it was emulated into p's conditions, the host's command line,
 * and p written to the output. */
int lab_run_finish(struct lab_run *r, const struct lab_request *rq,
		   const struct lab_job *job, struct profile *p)
{
	add_conditions(p, r, rq);
	/* what reproduces it is the host's command */
	free(p->command);
	p->command = profile_command_line(job->argc, job->argv);
	if (job->keep) {
		*job->keep = *p;
		memset(p, 0, sizeof(*p));
		if (!job->quiet)
			info("guest booted to /init in %.2f s (%.2f s by its own clock), QEMU ran %.1f s in all (%s)",
			     r->up_s, r->boot_s, r->boot > 1 ? r->walls_s : r->wall_s,
			     lab_accel_name(&r->accel));
		return 0;
	}
	if (profile_write(p, job->output, job->output_flags))
		return -1;
	if (!job->quiet && r->boot > 1)
		info("%d boots, the first to /init in %.2f s (%.2f s by its own clock), QEMU ran %.1f s in all (%s); profile written to '%s'",
		     r->boot, r->up_s, r->boot_s, r->walls_s, lab_accel_name(&r->accel),
		     job->output);
	else if (!job->quiet)
		info("guest booted to /init in %.2f s (%.2f s by its own clock), QEMU ran %.1f s (%s); profile written to '%s'",
		     r->up_s, r->boot_s, r->wall_s, lab_accel_name(&r->accel),
		     job->output);
	return 0;
}

/*
 * The perpkt that runs in the guest: --guest-perpkt, else this binary
 * when the kernel is of its architecture, else the cross-build beside
 * it (build-arm64/perpkt next to build/perpkt, as make cross-arm64
 * leaves them). The kernel's architecture (k, lab_kernel_check) and the
 * binary's must agree. A malloc'd path, or NULL after printing why.
 */
static char *guest_binary(const struct lab_request *rq,
			  const struct lab_arch *k, const struct lab_arch **arch)
{
	char *self = realpath("/proc/self/exe", NULL), *path, *cross;
	const char *deb;

	if (!self) {
		error("cannot find perpkt's own binary: %s", strerror(errno));
		return NULL;
	}
	path = rq->guest_perpkt ? strdup(rq->guest_perpkt) : self;
	if (rq->guest_perpkt)
		free(self);
	if (!rq->guest_perpkt && lab_arch_of_file(path, arch) == 0 &&
	    *arch != k && !strcmp(k->name, "aarch64")) {
		/* <dir>/../build-arm64/perpkt beside <dir>/perpkt */
		if (asprintf(&cross, "%s/../build-arm64/perpkt", dirname(self)) < 0)
			cross = NULL;
		free(self);
		path = cross;
		if (!path || access(path, X_OK)) {
			error("'%s' is an %s kernel and this perpkt is not: give --guest-perpkt with an %s perpkt (make cross-arm64 builds build-arm64/perpkt)",
			      rq->kernel, k->name, k->name);
			free(path);
			return NULL;
		}
		info("guest binary: '%s' (the cross-build for %s)", path, k->name);
	}
	if (!path || lab_arch_of_file(path, arch)) {
		if (!path)
			error("out of memory");
		free(path);
		return NULL;
	}
	if (*arch != k) {
		deb = strcmp(k->name, "aarch64") ? "" : " (make cross-arm64 builds one)";
		error("'%s' is an %s kernel but '%s' is an %s binary: give --guest-perpkt with an %s perpkt%s",
		      rq->kernel, k->name, path, (*arch)->name, k->name, deb);
		free(path);
		return NULL;
	}
	return path;
}

/* The image's configuration against what the guest needs, before a
 * boot that would fail without it. */
static int check_config(struct lab_run *r, const struct lab_request *rq,
			const struct lab_job *job)
{
	if (rq->config && access(rq->config, R_OK))
		return error("cannot read kernel configuration '%s': %s",
			     rq->config, strerror(errno));
	if (lab_kconfig_find(rq->kernel, rq->config, r->config, sizeof(r->config))) {
		r->config[0] = '\0';
		if (!job->quiet)
			info("no configuration of '%s' found (config-R beside vmlinuz-R, its tree's .config, or --config FILE): not checked; the guest needs %s",
			     rq->kernel, lab_kconfig_needs(r->arch, job->veth));
		return 0;
	}
	return lab_kconfig_check(r->config, r->arch, job->veth);
}

/* Whether the guest runs on QEMU's instruction clock (lab.h), and in
 * words why or why not, for lab.deterministic. */
static void choose_clock(struct lab_run *r, const struct lab_request *rq)
{
	int cpus = lab_guest_cpus(rq);

	r->cpus = cpus;
	r->icount_shift = -1;
	if (!rq->exact)
		snprintf(r->clock, sizeof(r->clock), "no: without --exact the guest runs threaded, its clock the host's");
	else if (lab_qemu_args_icount((char *const *)rq->qemu_args, rq->nqemu_args))
		snprintf(r->clock, sizeof(r->clock), "unknown: -icount as --qemu-arg sets it");
	else if (r->nic)
		snprintf(r->clock, sizeof(r->clock), "no: two guests joined by a NIC run threaded, the host interleaving them: the network path repeats, the total not");
	else {
		r->icount_shift = LAB_ICOUNT_SHIFT;
		snprintf(r->clock, sizeof(r->clock), "yes: -icount shift=%d,sleep=off (guest time is %d ns an instruction), %d vCPU%s%s, no host entropy, wall clock from %s",
			 r->icount_shift, 1 << r->icount_shift, cpus,
			 cpus > 1 ? "s" : "",
			 cpus > 1 ? " (the kernel boots on one, maxcpus=1, the others brought online after /init)" : "",
			 LAB_RTC_BASE);
	}
}

int lab_run_prepare(struct lab_run *r, const struct lab_request *rq,
		    const struct lab_job *job)
{
	const char *tmp = getenv("TMPDIR");
	struct lab_guest g = { .kernel = rq->kernel };
	char *self = NULL, *id, why[512];
	const struct lab_arch *k;
	int ret;

	if (access(rq->kernel, R_OK))
		return error("cannot read kernel image '%s': %s", rq->kernel,
			     strerror(errno));
	k = lab_kernel_check(rq->kernel, why, sizeof(why));
	if (!k)
		return error("'%s' is not a kernel QEMU can boot: %s", rq->kernel,
			     why);
	if (rq->vmlinux && access(rq->vmlinux, R_OK))
		return error("cannot read vmlinux '%s': %s", rq->vmlinux,
			     strerror(errno));
	if (rq->exact) {
		r->plugin = lab_exact_plugin(why, sizeof(why));
		if (!r->plugin)
			return error("--exact cannot count here: %s", why);
	}
	choose_clock(r, rq);
	if (lab_content_hash(rq->kernel, LAB_IMAGE_HASH_BYTES, r->kernel_hash,
			     sizeof(r->kernel_hash)))
		return -1;
	/* with --append the kernel may move (kaslr): its own each boot */
	if (rq->exact && !rq->append) {
		if (lab_kallsyms_key(rq->kernel, r->kallsyms_key, sizeof(r->kallsyms_key)))
			return -1;
		r->known = lab_kallsyms_cached(r->kallsyms_key, r->known_gz,
					       sizeof(r->known_gz), r->known_modules,
					       sizeof(r->known_modules));
	}
	self = guest_binary(rq, k, &r->arch);
	if (!self)
		return -1;
	if (check_config(r, rq, job)) {
		free(self);
		return -1;
	}
	g.perpkt = self;
	id = symbolizer_file_build_id(self);
	snprintf(r->guest_perpkt, sizeof(r->guest_perpkt), "build-id %s",
		 id ? id : "unknown");
	free(id);
	g.modules = rq->modules;
	g.arch = r->arch;
	if (lab_dir_make(r->dir, sizeof(r->dir), tmp && *tmp ? tmp : "/tmp",
			 &r->dir_note)) {
		free(self);
		r->dir[0] = '\0';
		return -1;
	}
	path_in(r->initrd, sizeof(r->initrd), r, "initrd.cpio");
	path_in(r->console, sizeof(r->console), r, "console.log");
	if (!strcmp(r->arch->data_port, r->arch->console))
		path_in(r->data, sizeof(r->data), r, "console.log");
	else
		path_in(r->data, sizeof(r->data), r, "data.txt");
	path_in(r->log, sizeof(r->log), r, "qemu.log");
	path_in(r->out, sizeof(r->out), r, "out");
	if (mkdir(r->out, 0755)) {
		free(self);
		return error("cannot create '%s': %s", r->out, strerror(errno));
	}
	g.args = lab_guest_args(rq->guest_args, rq->nguest_args, rq->exact, r->client,
				job->keep != NULL, &g.nargs);
	g.exact = rq->exact;
	g.known_modules = r->known ? r->known_modules : NULL;
	g.late_cpus = late_cpus(r, rq);
	g.nic = r->nic, g.addr = r->addr, g.serve_bind = r->serve_bind;
	g.key = r->key, g.rps_cpus = r->rps_cpus, g.irq_cpu = r->irq_cpu;
	g.busy = r->busy;
	if (!g.args) {
		free(self);
		return error("out of memory");
	}
	ret = lab_guest_initramfs(&g, r->initrd, &r->module);
	free(g.args);
	free(self);
	if (!ret && !r->module && job->veth && rq->modules)
		warning("no veth module under '%s' (kernel/drivers/net/veth.ko*, lib/modules/*/kernel/drivers/net/veth.ko*): --net veth works only if it is built in",
			rq->modules);
	else if (!ret && !r->module && job->veth)
		warning("no veth module beside '%s' (../lib/modules/*/kernel/drivers/net/veth.ko*; --modules DIR names another place): --net veth works only if it is built in",
			rq->kernel);
	return ret;
}

int lab_guest_cpus(const struct lab_request *rq)
{
	if (rq->cpus > 0)
		return rq->cpus;
	return rq->exact && rq->one_cpu ? 1 : LAB_GUEST_CPUS;
}

/* Empty the folder the guest's files come out to, for the next boot. */
int lab_run_clear_out(const struct lab_run *r)
{
	if (lab_rm_tree(r->out) || mkdir(r->out, 0755))
		return error("cannot empty '%s': %s", r->out, strerror(errno));
	return 0;
}

int lab_merge_boot(struct profile *total, struct profile *one, int brc,
		   const char *what, int *got, int *rc)
{
	if (*got && profile_merge(total, one, what)) {
		profile_free(one);
		return -1;
	}
	if (*got)
		profile_free(one);
	if (!(*got)++ || brc > *rc)
		*rc = brc;  /* the worst of the boots' results */
	return 0;
}

int lab_merged(int got, int boots, const char *what, int rc)
{
	if (got && got < boots) {
		partial("%d of %d %s recorded: the profile has their windows",
			got, boots, what);
		return RESULT_PARTIAL;
	}
	return rc;
}

void lab_run_free(struct lab_run *r)
{
	free(r->qemu_command);
	free(r->plugin);
	r->qemu_command = r->plugin = NULL;
	if (r->dir[0])
		lab_dir_remove(r->dir, &r->dir_note, !!getenv("PERPKT_LAB_KEEP"));
	if (r->dir[0] && getenv("PERPKT_LAB_KEEP"))
		info("guest files kept in '%s' (PERPKT_LAB_KEEP)", r->dir);
	r->dir[0] = '\0';
}
