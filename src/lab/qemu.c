// SPDX-License-Identifier: GPL-2.0-only
/*
 * One QEMU process: started, watched (its console for the guest's /init
 * mark and for stalls, its messages for a KVM register dump), stopped at
 * a timeout or an interrupt, reaped. Its command line is qemu-argv.c's.
 */
#include "lab/qemu.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "system/procfile.h"

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* The binary on PATH, so a missing one is named before fork. */
static int on_path(const char *name)
{
	const char *path = getenv("PATH");
	char buf[4096];

	if (strchr(name, '/'))
		return !access(name, X_OK);
	while (path && *path) {
		size_t n = strcspn(path, ":");

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, path, name);
		if (!access(buf, X_OK))
			return 1;
		path += n + (path[n] == ':');
	}
	return 0;
}

/* The guest's boot time as the host sees it: the guest's own clock
 * under TCG can run fast or slow. */
static void watch_console(struct lab_qemu *q, double t)
{
	char *text;

	if (!q->up_mark || q->up_s >= 0)
		return;
	text = procfile_read(q->console);
	if (text && strstr(text, q->up_mark))
		q->up_s = t;
	free(text);
}

static long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : (long)st.st_size;
}

/* What QEMU prints when a KVM guest fails: x86's cpu_dump_state lines
 * (RAX=..., RIP=..., "TR =0020 ..."), arm64's (PC=..., X00=...), and
 * KVM's own lines before them. */
static int register_dump(const char *text)
{
	static const char *const marks[] = {
		"RIP=", "EIP=", "\nTR =", " PC=", "\nPC=", "X00=",
		"KVM internal error", "KVM: entry failed",
	};
	size_t i;

	for (i = 0; text && i < sizeof(marks) / sizeof(marks[0]); i++)
		if (strstr(text, marks[i]))
			return 1;
	return 0;
}

/* The last printable line of the console, shortened, into out. */
static void console_last_line(const char *path, char *out, size_t len)
{
	char *text = procfile_read(path), *end, *start;

	out[0] = '\0';
	if (!text)
		return;
	end = text + strlen(text);
	while (end > text && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
		end--;
	*end = '\0';
	start = strrchr(text, '\n');
	start = start ? start + 1 : text;
	start += strspn(start, "\r ");
	snprintf(out, len, "%.80s", start);
	for (end = out; *end; end++)
		if ((unsigned char)*end < ' ' || *end == 0x7f)
			*end = ' ';
	free(text);
}

/* With stall_s: a guest that stopped making progress before up_mark,
 * its reason in q->stalled; 1 then. */
static int stalled(struct lab_qemu *q, double t)
{
	long n, len = 0;
	char *text, last[96];

	if (q->stall_s <= 0 || q->up_s >= 0)
		return 0;
	n = file_size(q->log);
	if (n != q->log_len) {
		q->log_len = n;
		text = procfile_read(q->log);
		if (register_dump(text)) {
			lab_qemu_first_message(q->log, last, sizeof(last));
			snprintf(q->stalled, sizeof(q->stalled),
				 "QEMU stopped the guest with a register dump%s%s",
				 last[0] ? ": " : "", last);
			free(text);
			return 1;
		}
		free(text);
	}
	len = file_size(q->console);
	if (len != q->console_len || q->console_t == 0) {
		q->console_len = len;
		q->console_t = t;
		return 0;
	}
	if (t - q->console_t < q->stall_s)
		return 0;
	console_last_line(q->console, last, sizeof(last));
	if (last[0])
		snprintf(q->stalled, sizeof(q->stalled),
			 "the guest printed nothing for %.0f s after '%s'",
			 q->stall_s, last);
	else
		snprintf(q->stalled, sizeof(q->stalled),
			 "the guest printed nothing in %.0f s", q->stall_s);
	return 1;
}

int lab_qemu_start(struct lab_qemu *q)
{
	char **argv;
	pid_t pid, parent;
	int fd;

	if (!on_path(q->arch->qemu))
		return error("cannot find '%s' on PATH: apt-get install %s",
			     q->arch->qemu, q->arch->qemu_deb);
	argv = lab_qemu_argv(q);
	if (!argv)
		return error("out of memory");
	/* this boot's lines only: not an earlier boot's /init mark */
	unlink(q->console);
	unlink(q->data);
	q->t0 = now();
	q->up_s = -1;
	q->stalled[0] = '\0';
	q->log_len = q->console_len = 0;
	q->console_t = 0;
	parent = getpid();
	pid = fork();
	if (pid < 0) {
		lab_qemu_argv_free(argv);
		return error("cannot fork: %s", strerror(errno));
	}
	if (!pid) {
		fd = open(q->log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		fd = open("/dev/null", O_RDONLY);
		if (fd >= 0)
			dup2(fd, 0);
		/* its own group: a ^C on the terminal reaches perpkt only;
		 * and it dies with perpkt, even one killed before this */
		setpgid(0, 0);
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
			_exit(127);
		execvp(argv[0], argv);
		_exit(127);
	}
	lab_qemu_argv_free(argv);
	q->pid = pid;
	return 0;
}

void lab_qemu_kill(struct lab_qemu *q)
{
	if (q->pid > 0)
		kill(q->pid, SIGKILL);
}

int lab_qemu_poll(struct lab_qemu *q, enum lab_qemu_end *end,
		  int *status, double *wall_s)
{
	pid_t r = waitpid(q->pid, status, WNOHANG);

	if (r == q->pid) {
		q->pid = 0;
		*wall_s = now() - q->t0;
		watch_console(q, *wall_s);  /* the last lines it wrote */
		return 1;
	}
	if (r < 0 && errno != EINTR) {
		*wall_s = now() - q->t0;
		return error("cannot wait for %s: %s", q->arch->qemu,
			     strerror(errno));
	}
	watch_console(q, now() - q->t0);
	if (*end == LAB_QEMU_EXITED) {
		if (q->interrupted && *q->interrupted)
			*end = LAB_QEMU_INTERRUPTED;
		else if (stalled(q, now() - q->t0))
			*end = LAB_QEMU_STALLED;
		else if (now() - q->t0 > q->timeout_s ||
			 (q->up_timeout_s > 0 && q->up_s < 0 &&
			  now() - q->t0 > q->up_timeout_s))
			*end = LAB_QEMU_TIMEOUT;
		if (*end != LAB_QEMU_EXITED)
			kill(q->pid, SIGKILL);
	}
	return 0;
}

int lab_qemu_run(struct lab_qemu *q, enum lab_qemu_end *end,
		 int *status, double *wall_s)
{
	int r;

	if (lab_qemu_start(q))
		return -1;
	*end = LAB_QEMU_EXITED;
	while (!(r = lab_qemu_poll(q, end, status, wall_s)))
		usleep(50 * 1000);
	return r < 0 ? -1 : 0;
}

void lab_qemu_version(const struct lab_arch *a, char *out, size_t len)
{
	char cmd[512];
	FILE *p;

	snprintf(out, len, "unknown (%s --version failed)", a->qemu);
	snprintf(cmd, sizeof(cmd), "%s --version 2>/dev/null", a->qemu);
	p = popen(cmd, "r");
	if (!p)
		return;
	if (fgets(cmd, sizeof(cmd), p)) {
		cmd[strcspn(cmd, "\n")] = '\0';
		snprintf(out, len, "%s", cmd);
	}
	pclose(p);
}

void lab_qemu_first_message(const char *log, char *out, size_t len)
{
	char *text = procfile_read(log), *line, *save = NULL, *p;
	size_t n;

	out[0] = '\0';
	for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		p = line;
		if (!strncmp(p, "qemu-system-", 12) && (n = strcspn(p, ":")) && p[n])
			p += n + 1 + (p[n + 1] == ' ');
		/* "warning: ...", "-accel kvm: warning: ..." */
		if (!strncmp(p, "warning: ", 9) || strstr(p, ": warning: "))
			continue;
		if (!strncmp(p, "error: ", 7))
			p += 7;
		p += strspn(p, " \t\r");
		if (!*p)
			continue;
		snprintf(out, len, "%.200s", p);
		for (p = out; *p; p++)
			if ((unsigned char)*p < ' ')
				*p = ' ';
		break;
	}
	free(text);
}

void lab_print_tail(const char *what, const char *none, const char *path,
		    int lines)
{
	FILE *f = fopen(path, "r");
	char **ring, *line = NULL;
	size_t cap = 0;
	long n = 0, i;
	int c = f ? fgetc(f) : EOF;

	if (c == EOF) {
		fprintf(stderr, "perpkt: %s\n", none);
		if (f)
			fclose(f);
		return;
	}
	ungetc(c, f);
	fprintf(stderr, "perpkt: %s:\n", what);
	ring = calloc(lines, sizeof(*ring));
	while (ring && getline(&line, &cap, f) >= 0) {
		free(ring[n % lines]);
		ring[n % lines] = strdup(line);
		n++;
	}
	for (i = n > lines ? n - lines : 0; ring && i < n; i++) {
		const char *l = ring[i % lines];

		fprintf(stderr, "  | %s%s", l ? l : "",
			l && l[strlen(l) - 1] == '\n' ? "" : "\n");
	}
	for (i = 0; ring && i < lines; i++)
		free(ring[i]);
	free(ring);
	free(line);
	fclose(f);
}
