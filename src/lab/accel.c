// SPDX-License-Identifier: GPL-2.0-only
#include "lab/accel.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <linux/kvm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "system/dirs.h"
#include "system/procfile.h"

#define KVM_DEVICE "/dev/kvm"
#define CACHE_FILE "accel"
/* lab.accel when KVM cannot run a guest here, before the reason */
#define NO_KVM "tcg (KVM cannot run guests on this host: "

/* a->kvm and a->text. */
static void set(struct lab_accel *a, int kvm, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void set(struct lab_accel *a, int kvm, const char *fmt, ...)
{
	va_list ap;

	a->kvm = kvm;
	va_start(ap, fmt);
	vsnprintf(a->text, sizeof(a->text), fmt, ap);
	va_end(ap);
}

int lab_accel_parse(const char *arg, enum lab_accel_want *want)
{
	if (!strcmp(arg, "auto"))
		*want = LAB_ACCEL_AUTO;
	else if (!strcmp(arg, "kvm"))
		*want = LAB_ACCEL_KVM;
	else if (!strcmp(arg, "tcg"))
		*want = LAB_ACCEL_TCG;
	else
		return error("unknown --accel '%s': use auto, kvm or tcg", arg);
	return 0;
}

/* Tabs and newlines would split the cache's fields and lines. */
static void one_line(char *s)
{
	for (; *s; s++)
		if (*s == '\t' || *s == '\n' || *s == '\r')
			*s = ' ';
}

/* What decides whether KVM runs a guest here: the host kernel, QEMU and
 * the KVM device (its inode is new at each boot of the host). */
static void host_key(struct lab_accel *a, const char *qemu_version)
{
	struct utsname u;
	struct stat st;

	if (uname(&u))
		memset(&u, 0, sizeof(u));
	if (stat(KVM_DEVICE, &st))
		memset(&st, 0, sizeof(st));
	snprintf(a->key, sizeof(a->key), "host %s %s; %s; %s %u:%u inode %lu",
		 u.release, u.version, qemu_version, KVM_DEVICE,
		 major(st.st_rdev), minor(st.st_rdev), (unsigned long)st.st_ino);
	one_line(a->key);
}

/* Lines "KEY<tab>kvm|tcg<tab>UNIX-TIME<tab>REASON": the last line of
 * the key is the answer. 1 found (*kvm, reason), 0 not. */
static int cache_lookup(const char *key, int *kvm, char *reason, size_t len)
{
	char path[4096], *text, *line, *save = NULL, *f[4];
	int found = 0, i;

	if (lab_arch_path(CACHE_FILE, path, sizeof(path)))
		return 0;
	text = procfile_read(path);
	for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		for (i = 0, f[0] = line; i < 3 && f[i]; i++) {
			f[i + 1] = strchr(f[i], '\t');
			if (f[i + 1])
				*f[i + 1]++ = '\0';
		}
		if (i < 3 || !f[3] || strcmp(f[0], key))
			continue;
		if (strcmp(f[1], "kvm") && strcmp(f[1], "tcg"))
			continue;
		*kvm = !strcmp(f[1], "kvm");
		snprintf(reason, len, "%s", f[3]);
		found = 1;
	}
	free(text);
	return found;
}

/* Append the host's answer; a line is one write, so runs side by side
 * do not mix theirs. A cache that cannot be written is said: the next
 * run then probes again. */
static void cache_remember(const char *key, int kvm, const char *reason)
{
	char path[4096], *line = NULL;
	int fd, n;

	if (lab_arch_path(CACHE_FILE, path, sizeof(path)))
		return;
	if (dirs_make_parent(path, 0755)) {
		warning("cannot remember the accelerator in '%s': %s (the next run decides again)",
			path, strerror(errno));
		return;
	}
	n = asprintf(&line, "%s\t%s\t%lld\t%s\n", key, kvm ? "kvm" : "tcg",
		     (long long)time(NULL), reason);
	if (n < 0)
		return;
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0 || write(fd, line, n) != n)
		warning("cannot remember the accelerator in '%s': %s (the next run decides again)",
			path, strerror(errno));
	if (fd >= 0)
		close(fd);
	free(line);
}

/* 1 when /dev/kvm opens and creates a VM; else 0 with the reason. */
static int kvm_device_usable(char *why, size_t len)
{
	int fd = open(KVM_DEVICE, O_RDWR | O_CLOEXEC), vm;

	if (fd < 0) {
		snprintf(why, len, "%s: %s", KVM_DEVICE, strerror(errno));
		return 0;
	}
	if (ioctl(fd, KVM_GET_API_VERSION, 0) != KVM_API_VERSION) {
		snprintf(why, len, "%s: unexpected API version", KVM_DEVICE);
		close(fd);
		return 0;
	}
	vm = ioctl(fd, KVM_CREATE_VM, 0);
	if (vm < 0) {
		snprintf(why, len, "%s cannot create a VM: %s", KVM_DEVICE,
			 strerror(errno));
		close(fd);
		return 0;
	}
	close(vm);
	close(fd);
	return 1;
}

void lab_accel_choose(struct lab_accel *a, const struct lab_arch *arch,
		      const struct lab_request *rq, const char *qemu_version)
{
	char why[512];
	int kvm = 0;

	memset(a, 0, sizeof(*a));
	if (lab_qemu_args_accel((char *const *)rq->qemu_args, rq->nqemu_args)) {
		a->forced = 1;
		set(a, 0, "as --qemu-arg chose");
		return;
	}
	if (rq->accel != LAB_ACCEL_AUTO) {
		a->forced = 1;
		kvm = rq->accel == LAB_ACCEL_KVM;
		set(a, kvm, "%s (--accel %s)", kvm ? "kvm" : "tcg", kvm ? "kvm" : "tcg");
		return;
	}
	if (rq->exact) {
		set(a, 0, "tcg (--exact counts with a TCG plugin)");
		return;
	}
	if (!lab_arch_native(arch)) {
		set(a, 0, "tcg (an %s guest on another architecture)", arch->name);
		return;
	}
	if (!kvm_device_usable(why, sizeof(why))) {
		set(a, 0, "tcg (%s)", why);
		return;
	}
	host_key(a, qemu_version);
	a->known = cache_lookup(a->key, &kvm, why, sizeof(why));
	if (a->known && !kvm)
		set(a, 0, NO_KVM "%s)", why);
	else
		set(a, 1, "kvm");  /* unknown: this boot is the probe */
}

const char *lab_accel_name(const struct lab_accel *a)
{
	if (!strncmp(a->text, "as ", 3))
		return "the accelerator --qemu-arg chose";
	return a->kvm ? "KVM" : "TCG";
}

void lab_accel_apply(const struct lab_accel *a, struct lab_qemu *q)
{
	q->kvm = a->kvm;
	q->stall_s = a->kvm && !a->forced ? LAB_KVM_STALL_S : 0;
}

/* How a KVM boot that never reached /init ended, in words: the event
 * ("QEMU was killed by signal 6 (Aborted)") and QEMU's first message
 * (": failed to set MSR 0x10a to 0x69"), if any. */
static void how_it_ended(const struct lab_qemu *q, enum lab_qemu_end end,
			 int status, char *event, size_t elen, char *detail,
			 size_t dlen)
{
	char msg[256];

	detail[0] = '\0';
	if (end == LAB_QEMU_STALLED) {
		snprintf(event, elen, "%s", q->stalled);
		return;
	}
	if (end == LAB_QEMU_TIMEOUT) {
		snprintf(event, elen, "the guest did not reach /init in %.0f s",
			 q->up_timeout_s > 0 ? q->up_timeout_s : q->timeout_s);
		return;
	}
	if (WIFSIGNALED(status))
		snprintf(event, elen, "QEMU was killed by signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(event, elen, "QEMU exited with status %d",
			 WEXITSTATUS(status));
	lab_qemu_first_message(q->log, msg, sizeof(msg));
	if (msg[0])
		snprintf(detail, dlen, ": %s", msg);
}

int lab_accel_falls_back(const struct lab_accel *a, const struct lab_qemu *q)
{
	return a->kvm && !a->forced && q->up_s < 0;
}

int lab_accel_boot_ended(struct lab_accel *a, const struct lab_qemu *q,
			 enum lab_qemu_end end, int status)
{
	char event[384], detail[260], reason[400], path[4096];
	struct timespec t;

	if (!a->kvm || end == LAB_QEMU_INTERRUPTED)
		return 0;
	if (q->up_s >= 0) {
		if (!a->forced && !a->known && a->key[0]) {
			cache_remember(a->key, 1, "a guest reached /init under KVM");
			a->known = 1;
		}
		return 0;
	}
	if (!lab_accel_falls_back(a, q))
		return 0;
	how_it_ended(q, end, status, event, sizeof(event), detail, sizeof(detail));
	one_line(event);
	one_line(detail);
	clock_gettime(CLOCK_MONOTONIC, &t);
	if (lab_arch_path(CACHE_FILE, path, sizeof(path)))
		snprintf(path, sizeof(path), "perpkt's cache");
	info("KVM: %s%s (after %.1f s); using TCG (remembered for this host in '%s'; --accel kvm tries KVM again)",
	     event, detail, t.tv_sec + t.tv_nsec / 1e9 - q->t0, path);
	snprintf(reason, sizeof(reason), "%s%s", event, detail);
	if (a->key[0])
		cache_remember(a->key, 0, reason);
	a->known = 1;
	set(a, 0, NO_KVM "%s)", reason);
	return 1;
}
