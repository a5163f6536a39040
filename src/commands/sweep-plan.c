// SPDX-License-Identifier: GPL-2.0-only
/*
 * perpkt sweep --plan: the sweep's records as command lines that an
 * engine made for it runs (GNU parallel on one host or over ssh, a
 * Slurm job array), not a scheduler of our own. DIR/plan holds one
 * self-contained line per profile: it checks that the host has the
 * same perpkt binary and the same kernel image as the plan's, by
 * content (BLAKE2b-256, b2sum -l 256), records into NAME.partial.json,
 * notes the host in NAME.host and renames the profile into place; a
 * profile already there is kept. The same sweep without --plan then
 * finds every cell recorded, checks each profile against the plan (its
 * command line, image and guest perpkt) and prints the table.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands/record-options.h"
#include "commands/sweep.h"
#include "error.h"
#include "lab/content-hash.h"
#include "lab/lab.h"
#include "profile/profile.h"
#include "record/record.h"
#include "symbolize/symbolize.h"

/* What a cell runs besides its options: the kernel image it boots
 * and the perpkt the guest runs (NULL: no guest). */
struct cell_files {
	char image[4096], guest[4096];
	int kernel;
};

/* The cell's image (a tree's, when --kernel DIR) and guest perpkt. */
static int cell_files(const struct sweep *s, const size_t *idx,
		      const char *self, struct cell_files *f)
{
	char *argv[SWEEP_MAX_ARGS];
	struct record_options o;
	size_t n = sweep_record_argv(s, idx, "/dev/null", argv);
	int help = 0;

	memset(f, 0, sizeof(*f));
	record_defaults(&o);
	if (record_parse_args((int)n - 1, argv + 1, &o, &help) ||
	    record_open_trees(&o))
		return -1;
	if (!o.kernel.kernel)
		return 0;
	f->kernel = 1;
	if (!realpath(o.kernel.kernel, f->image))
		return error("cannot find kernel image '%s': %s", o.kernel.kernel,
			     strerror(errno));
	if (!realpath(o.kernel.guest_perpkt ? o.kernel.guest_perpkt : self, f->guest))
		return error("cannot find the guest's perpkt '%s': %s",
			     o.kernel.guest_perpkt ? o.kernel.guest_perpkt : self,
			     strerror(errno));
	return 0;
}

/* word as one shell word, in single quotes */
static void put_quoted(FILE *out, const char *word)
{
	const char *p;

	fputc('\'', out);
	for (p = word; *p; p++)
		if (*p == '\'')
			fputs("'\\''", out);
		else
			fputc(*p, out);
	fputc('\'', out);
}

/* "HASH  PATH" for b2sum -c; -1 after saying why */
static int put_check(FILE *out, const char *path)
{
	char hex[2 * LAB_IMAGE_HASH_BYTES + 1];

	if (lab_content_hash(path, LAB_IMAGE_HASH_BYTES, hex, sizeof(hex)))
		return -1;
	fprintf(out, " %s ", hex);
	put_quoted(out, path);
	return 0;
}

/* One line of the plan: the file k of a cell. */
static int put_line(FILE *out, const struct sweep *s, const struct sweep_cells *c,
		    size_t cell, int k, const char *cwd, const char *dir,
		    const char *self)
{
	char *argv[SWEEP_MAX_ARGS], part[8192], final[8192], host[8192], name[300];
	struct cell_files f;
	size_t n, i;

	if (cell_files(s, c->idx[cell], self, &f))
		return -1;
	if (k < 0)
		snprintf(name, sizeof(name), "%s", c->names[cell]);
	else
		snprintf(name, sizeof(name), "%s.r%d", c->names[cell], k + 1);
	snprintf(part, sizeof(part), "%s/%s.partial.json", dir, name);
	snprintf(final, sizeof(final), "%s/%s.json", dir, name);
	snprintf(host, sizeof(host), "%s/%s.host", dir, name);
	n = sweep_record_argv(s, c->idx[cell], part, argv);
	fputs("cd ", out);
	put_quoted(out, cwd);
	fputs(" && { test -s ", out);
	put_quoted(out, final);
	fputs(" || { printf '%s  %s\\n'", out);
	if (put_check(out, self) ||
	    (f.kernel && put_check(out, f.image)) ||
	    (f.kernel && strcmp(f.guest, self) && put_check(out, f.guest)))
		return -1;
	fprintf(out, " | b2sum -l %d --quiet -c - || { echo 'perpkt sweep plan: %s: "
		"this host has another perpkt or kernel image than the plan'\"'\"'s' >&2; exit 3; }; ",
		8 * LAB_IMAGE_HASH_BYTES, name);
	put_quoted(out, self);
	for (i = 1; i < n; i++) {
		fputc(' ', out);
		put_quoted(out, argv[i]);
	}
	/* record's 1 (lost samples) keeps the profile, as sweep does */
	fputs("; rc=$?; [ $rc -le 1 ] && hostname >", out);
	put_quoted(out, host);
	fputs(" && mv ", out);
	put_quoted(out, part);
	fputc(' ', out);
	put_quoted(out, final);
	fputs(" || { rm -f ", out);
	put_quoted(out, part);
	fputs("; exit 2; }; }; }\n", out);
	return 0;
}

/* DIR/plan.sbatch: a job array over the plan's lines */
static int write_sbatch(const char *dir, size_t lines, int deterministic)
{
	char path[4200], plan[4200];
	FILE *out;

	snprintf(path, sizeof(path), "%s/plan.sbatch", dir);
	snprintf(plan, sizeof(plan), "%s/plan", dir);
	out = fopen(path, "w");
	if (!out)
		return error("cannot write '%s': %s", path, strerror(errno));
	fprintf(out, "#!/bin/sh\n"
		"# perpkt sweep --plan slurm: one array task a line of %s\n"
		"#SBATCH --job-name=perpkt-sweep\n"
		"#SBATCH --array=1-%zu\n"
		"#SBATCH --output=%s/slurm-%%A_%%a.out\n", plan, lines, dir);
	if (deterministic)
		fputs("# exact cells on QEMU's instruction clock: one host CPU each,\n"
		      "# side by side on a node\n"
		      "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n", out);
	else
		fputs("# sampled cells sample every CPU of the host: a node each\n"
		      "#SBATCH --ntasks=1\n#SBATCH --exclusive\n", out);
	fprintf(out, "line=$(sed -n \"${SLURM_ARRAY_TASK_ID:?not a Slurm array task}p\" ");
	put_quoted(out, plan);
	fputs(")\n[ -n \"$line\" ] || { echo \"perpkt sweep plan: no line $SLURM_ARRAY_TASK_ID\" >&2; exit 2; }\n"
	      "exec sh -c \"$line\"\n", out);
	if (fclose(out))
		return error("cannot write '%s': %s", path, strerror(errno));
	return 0;
}

int sweep_plan_write(const struct sweep *s, const struct sweep_cells *c)
{
	char self[4096], cwd[4096], dir[4096], path[4200], tmp[4300];
	size_t cell, f, lines = 0;
	ssize_t n;
	FILE *out;
	int ret = 0;

	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0)
		return error("cannot find this perpkt's binary: %s", strerror(errno));
	self[n] = '\0';
	if (!getcwd(cwd, sizeof(cwd)) || !realpath(s->dir, dir))
		return error("cannot find the folder '%s': %s", s->dir, strerror(errno));
	snprintf(path, sizeof(path), "%s/plan", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	out = fopen(tmp, "w");
	if (!out)
		return error("cannot write '%s': %s", tmp, strerror(errno));
	for (cell = 0; cell < c->n && !ret; cell++)
		for (f = 0; f < c->files && !ret; f++, lines++)
			ret = put_line(out, s, c, cell, sweep_file_k(c, f), cwd, dir, self);
	if (fclose(out) && !ret)
		ret = error("cannot write '%s': %s", tmp, strerror(errno));
	if (!ret && rename(tmp, path))
		ret = error("cannot write '%s': %s", path, strerror(errno));
	if (ret) {
		unlink(tmp);
		return -1;
	}
	if (!strcmp(s->plan, "slurm") && write_sbatch(dir, lines, s->deterministic))
		return -1;
	info("sweep: %zu command lines in %s, one a profile; nothing recorded", lines, path);
	if (!strcmp(s->plan, "slurm"))
		info("run them as a Slurm job array: sbatch %s/plan.sbatch "
		     "(%s must be the same path on every node)", dir, dir);
	else if (s->deterministic)
		info("run them with GNU parallel: parallel --jobs %ld < %s "
		     "(exact cells side by side: a host CPU each; other hosts: "
		     "-S HOST,... where %s is the same path)",
		     sysconf(_SC_NPROCESSORS_ONLN), path, dir);
	else
		info("run them with GNU parallel: parallel --jobs 1 < %s "
		     "(sampled cells one at a time on a host: each samples every CPU; "
		     "other hosts: -S HOST,... where %s is the same path)", path, dir);
	info("then the same sweep without --plan checks their profiles and prints the table");
	return 0;
}

/* The profile's command against the cell's, its -o path aside (a
 * local sweep's and the plan's differ there); -1 out of memory. */
static int same_command(const struct sweep *s, const size_t *idx,
			const char *command)
{
	char *argv[SWEEP_MAX_ARGS], *want, *mark;
	size_t n = sweep_record_argv(s, idx, "\001", argv), pre, post, len;
	int same;

	want = profile_command_line((int)n - 1, argv + 1);
	if (!want)
		return error("out of memory");
	mark = strchr(want, '\001');
	pre = (size_t)(mark - want);
	post = strlen(mark + 1);
	len = command ? strlen(command) : 0;
	same = command && len > pre + post &&
	       !strncmp(command, want, pre) &&
	       !strcmp(command + len - post, mark + 1) &&
	       !memchr(command + pre, ' ', len - post - pre);
	free(want);
	return same;
}

/* The host in NAME.host, or "this host" */
static void read_host(const struct sweep *s, const char *name, int k,
		      char *host, size_t len)
{
	char path[4200];
	FILE *f;

	if (k < 0)
		snprintf(path, sizeof(path), "%s/%s.host", s->dir, name);
	else
		snprintf(path, sizeof(path), "%s/%s.r%d.host", s->dir, name, k + 1);
	f = fopen(path, "r");
	if (!f || !fgets(host, (int)len, f))
		snprintf(host, len, "this host");
	else
		host[strcspn(host, "\n")] = '\0';
	if (f)
		fclose(f);
}

int sweep_plan_check(const struct sweep *s, struct sweep_cells *c, size_t cell,
		     int k, char *host, size_t hostlen)
{
	char path[4200], self[4096], hex[2 * LAB_IMAGE_HASH_BYTES + 1], want[200];
	const char *got, *name = c->names[cell], *what = NULL;
	struct cell_files f;
	struct profile p;
	ssize_t n;
	char *id;
	int ret = -1;

	snprintf(path, sizeof(path), "%s/plan", s->dir);
	if (access(path, F_OK))
		return 1;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0)
		return error("cannot find this perpkt's binary: %s", strerror(errno));
	self[n] = '\0';
	sweep_cell_path(path, sizeof(path), s, name, k, 0);
	if (profile_read(&p, path))
		return -1;
	if (cell_files(s, c->idx[cell], self, &f))
		goto out;
	if ((ret = same_command(s, c->idx[cell], p.command)) < 0)
		goto out;
	ret = -1;
	if (!same_command(s, c->idx[cell], p.command))
		what = "its command line is not the plan's";
	else if (f.kernel) {
		if (lab_content_hash(f.image, LAB_IMAGE_HASH_BYTES, hex, sizeof(hex)))
			goto out;
		got = profile_condition(&p, LAB_COND_KERNEL_HASH);
		id = symbolizer_file_build_id(f.guest);
		snprintf(want, sizeof(want), "build-id %s", id ? id : "unknown");
		free(id);
		if (!got || strcmp(got, hex))
			what = "its kernel image is not the plan's (lab.kernel_blake2b)";
		else if (!(got = profile_condition(&p, LAB_COND_GUEST_PERPKT)) ||
			 strcmp(got, want))
			what = "its guest perpkt is not the plan's (lab.guest_perpkt)";
	}
	if (what) {
		snprintf(c->why[cell], sizeof(c->why[cell]),
			 "%.80s: %s; remove it to record it again", path, what);
		error("cell %s: %s", name, c->why[cell]);
		goto out;
	}
	read_host(s, name, k, host, hostlen);
	ret = 0;
out:
	profile_free(&p);
	return ret;
}
