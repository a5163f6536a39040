// SPDX-License-Identifier: GPL-2.0-only
/*
 * record --kernel: one guest booted once (or once per --exact window),
 * its profile collected, checked and written; --net nic hands over to
 * lab-nic.c. The guest's lifecycle is run.c's.
 */
#include "lab/lab.h"

#include <stdio.h>
#include <string.h>

#include "error.h"
#include "exitcode.h"
#include "lab/channel.h"
#include "lab/nic.h"
#include "lab/run.h"
#include "profile/profile.h"

/* What two deterministic boots must share (lab.h): the round trips,
 * the instructions in the window and where each was executed. */
struct boot_print {
	uint64_t round_trips, insns, addresses, hash;
};

static void boot_print(const struct profile *p, struct boot_print *b)
{
	size_t i;

	memset(b, 0, sizeof(*b));
	b->round_trips = p->round_trips;
	b->hash = 1469598103934665603ULL;  /* FNV-1a over (cpu, ip, count) */
	for (i = 0; i < p->nsamples; i++) {
		const struct profile_sample *sm = &p->samples[i];
		uint64_t v[3] = { sm->cpu, sm->ip, sm->weight };
		const unsigned char *c = (const unsigned char *)v;
		size_t k;

		for (k = 0; k < sizeof(v); k++)
			b->hash = (b->hash ^ c[k]) * 1099511628211ULL;
		b->insns += sm->weight;
		b->addresses++;
	}
}

/* -r N on the instruction clock: does boot n agree with the first?
 * Said, and kept for lab.boots_agree; *differ counts the boots that
 * did not. */
static void compare_boot(const struct boot_print *first,
			 const struct boot_print *b, int n, int *differ)
{
	if (!memcmp(first, b, sizeof(*b))) {
		info("boot %d is identical to boot 1: %llu instructions at %llu addresses, %llu round trips",
		     n, (unsigned long long)b->insns, (unsigned long long)b->addresses,
		     (unsigned long long)b->round_trips);
		return;
	}
	(*differ)++;
	warning("boot %d differs from boot 1 although the guest ran on the instruction clock: %llu vs %llu instructions (%+.4f%%), %llu vs %llu round trips, %s; the total cannot decide a bisect",
		n, (unsigned long long)b->insns, (unsigned long long)first->insns,
		first->insns ? 100.0 * ((double)b->insns - (double)first->insns) /
			       (double)first->insns : 0.0,
		(unsigned long long)b->round_trips,
		(unsigned long long)first->round_trips,
		b->addresses == first->addresses ? "the same addresses" :
		"other addresses");
}

/* Boot once; 0 when the guest's files came out. */
static int boot(struct lab_run *r, const struct lab_request *rq,
		const struct lab_job *job)
{
	struct lab_qemu q;
	enum lab_qemu_end end;
	int status = 0, n;

	lab_run_qemu(r, rq, job, &q, (char **)rq->qemu_args, rq->nqemu_args);
	if (!job->quiet && job->boots > 1)
		info("booting '%s' under %s (%s), boot %d of %d", rq->kernel,
		     r->arch->qemu, r->accel.text, r->boot + 1, job->boots);
	else if (!job->quiet)
		info("booting '%s' under %s (%s)", rq->kernel, r->arch->qemu,
		     r->accel.text);
	if (lab_qemu_run(&q, &end, &status, &r->wall_s))
		return -1;
	r->walls_s += r->wall_s;
	r->up_s = q.up_s;
	n = end == LAB_QEMU_EXITED ? lab_channel_unpack(r->data, r->out) : 0;
	if (n < 0)
		return -1;
	if (!n)
		return lab_run_failed(r, rq, &q, end, status);
	lab_accel_boot_ended(&r->accel, &q, end, status);  /* KVM works */
	return 0;
}

/* Boot once, under TCG again if KVM could not run the guest, and once
 * more if a TCG guest stalled before /init. */
static int boot_once(struct lab_run *r, const struct lab_request *rq,
		     const struct lab_job *job)
{
	int ret = boot(r, rq, job);

	if (ret == LAB_BOOT_KVM_FAILED)
		ret = boot(r, rq, job);
	if (ret == LAB_BOOT_STALLED && !(job->interrupted && *job->interrupted)) {
		/* seen once in dozens of boots, at host load 3-5: a TCG guest
		 * that stops in early boot, or after /init; the next boot
		 * goes through */
		info("booting it again: a TCG guest can stall on a loaded host");
		ret = boot(r, rq, job);
	}
	return ret;
}

int lab_record(const struct lab_request *rq, const struct lab_job *job)
{
	struct lab_run r;
	struct profile total, p;
	struct boot_print first, b;
	int rc = RESULT_FAILURE, boots = job->boots > 0 ? job->boots : 1, got = 0;
	int differ = 0;

	if (job->nic)
		return lab_record_nic(rq, job);
	memset(&r, 0, sizeof(r));
	memset(&total, 0, sizeof(total));
	if (lab_run_prepare(&r, rq, job))
		goto out;
	lab_qemu_version(r.arch, r.qemu_version, sizeof(r.qemu_version));
	lab_accel_choose(&r.accel, r.arch, rq, r.qemu_version);
	/* with --exact each window is a boot of its own */
	for (r.boot = 0; r.boot < boots; r.boot++) {
		char what[64];
		int brc;

		if ((r.boot && lab_run_clear_out(&r)) || boot_once(&r, rq, job))
			break;
		brc = lab_run_collect(&r, rq, job, got ? &p : &total);
		if (brc == RESULT_FAILURE)
			break;
		if (r.icount_shift >= 0 && boots > 1) {
			boot_print(got ? &p : &total, got ? &b : &first);
			if (got)
				compare_boot(&first, &b, r.boot + 1, &differ);
		}
		snprintf(what, sizeof(what), "boot %d", r.boot + 1);
		if (lab_merge_boot(&total, &p, brc, what, &got, &rc))
			break;
		if (job->interrupted && *job->interrupted)
			break;
	}
	rc = lab_merged(got, boots, "boots", rc);
	if (r.icount_shift >= 0 && got > 1) {
		char agree[160];

		if (differ)
			snprintf(agree, sizeof(agree), "no: %d of %d boots differ from the first",
				 differ, got - 1);
		else
			snprintf(agree, sizeof(agree), "yes: %d boots executed the same instructions, %llu in the window, and the same round trips",
				 got, (unsigned long long)first.insns);
		profile_add_condition(&total, LAB_COND_BOOTS_AGREE, agree);
	}
	r.boot = got;
	if (got && lab_run_finish(&r, rq, job, &total))
		rc = RESULT_FAILURE;
out:
	profile_free(&total);
	lab_run_free(&r);
	return rc;
}
