// SPDX-License-Identifier: GPL-2.0-only
/*
 * A profile's sampled addresses, each resolved once however many
 * samples hit it (function, bucket, rule, module, file; a helper in its
 * caller's bucket), with its samples summed: what the model's rows are
 * built from (model.c).
 */
#include "reports/model/model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "reports/model/model-internal.h"
#include "symbolize/symbolize.h"

/* (ip, sample index) pairs: sorting them groups samples by address. */
struct ip_ref {
	uint64_t ip;
	int idle;            /* idle by context (PROFILE_CTX_IDLE) */
	uint64_t bucket_ip;
	size_t idx;
};

/* The strings; acc is cleared apart (its rep moves into the rows). */
void addr_clear(struct addr_info *a)
{
	free(a->function);
	free(a->bucket);
	free(a->rule);
	free(a->module);
	free(a->file);
}

static int cmp_ip_ref(const void *pa, const void *pb)
{
	const struct ip_ref *a = pa, *b = pb;

	if (a->ip != b->ip)
		return a->ip < b->ip ? -1 : 1;
	if (a->idle != b->idle)
		return a->idle - b->idle;
	if (a->bucket_ip != b->bucket_ip)
		return a->bucket_ip < b->bucket_ip ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* A helper's sample (bucket rule kind "caller") in the bucket of the
 * caller its callchain names (model-irq-enable.c), by that caller's
 * rule, said as such; as it is when the caller has no bucket of its
 * own. After a's own strings are copied: this resolves another ip. */
static int caller_bucket(struct symbolizer *s, struct addr_info *a)
{
	struct sym_result c;
	char *rule;

	memset(&c, 0, sizeof(c));
	if (symbolizer_resolve(s, a->bucket_ip, &c) != 0 || !c.bucket ||
	    !strcmp(c.bucket, "other") || !c.name)
		return 0;
	if (asprintf(&rule, "%s (the bucket of its caller %s)", c.rule,
		     c.function ? c.function : c.name) < 0)
		return -1;
	free(a->rule);
	a->rule = rule;
	free(a->bucket);
	a->bucket = NULL;
	return dup_opt(&a->bucket, c.bucket);
}

int addr_resolve(struct symbolizer *s, struct addr_info *a)
{
	uint64_t ip = a->ip;
	struct sym_result res;
	const char *fn;
	int ret;

	memset(&res, 0, sizeof(res));
	a->ip = ip;
	/* record --user sums user-space samples at one pseudo address */
	if (ip == PROFILE_USER_IP) {
		if (dup_opt(&a->function, MODEL_USER_NAME) ||
		    dup_opt(&a->bucket, MODEL_USER_BUCKET) ||
		    dup_opt(&a->rule, "(user space, record --user)"))
			goto oom;
		return 0;
	}
	ret = symbolizer_resolve(s, ip, &res);
	if (ret < 0)
		return error("cannot resolve address 0x%llx",
			     (unsigned long long)ip);
	/* the idle task with no interrupt work on its stack: idle whatever
	 * the function is called (model-irq-enable.c) */
	if (ret >= 0 && a->idle) {
		res.bucket = MODEL_IDLE_BUCKET;
		res.rule = MODEL_IDLE_CONTEXT_RULE;
	}
	a->ip = ip;
	fn = res.function ? res.function : res.name;
	if (ret == 1 || !fn) {
		/* One row for all of them: their share still has to add up. */
		if (dup_opt(&a->function, MODEL_UNKNOWN_NAME) ||
		    dup_opt(&a->bucket, a->idle ? MODEL_IDLE_BUCKET :
			    MODEL_UNKNOWN_BUCKET) ||
		    dup_opt(&a->rule, res.rule))
			goto oom;
		return 1;
	}
	/* Strings belong to the symbolizer and may not outlive the next call. */
	if (dup_opt(&a->function, fn) ||
	    dup_opt(&a->bucket, res.bucket ? res.bucket : "other") ||
	    dup_opt(&a->rule, res.rule) ||
	    dup_opt(&a->module, res.module) ||
	    dup_opt(&a->file, res.file) ||
	    (a->bucket_ip && caller_bucket(s, a)))
		goto oom;
	return 0;
oom:
	return error("out of memory resolving addresses");
}

/*
 * Resolve each distinct ip once and sum its samples per event;
 * sample_addr[i] is the address entry of sample i.
 */
int collect_addrs(const struct model *m, struct symbolizer *s,
			 struct addr_info **out, size_t *nout,
			 size_t *nunknown, size_t *sample_addr, size_t nrep)
{
	const struct profile_sample *samples = m->samples;
	size_t nsamples = m->nsamples;
	struct ip_ref *refs;
	struct addr_info *addrs = NULL;
	size_t i, n = 0;
	int ret = -1;

	*out = NULL;
	*nout = 0;
	*nunknown = 0;
	if (!nsamples)
		return 0;
	refs = calloc(nsamples, sizeof(*refs));
	addrs = calloc(nsamples, sizeof(*addrs));
	if (!refs || !addrs) {
		error("out of memory for %zu samples", nsamples);
		goto out;
	}
	for (i = 0; i < nsamples; i++) {
		refs[i].ip = samples[i].ip;
		refs[i].idle = samples[i].context == PROFILE_CTX_IDLE;
		refs[i].bucket_ip = samples[i].bucket_ip;
		refs[i].idx = i;
	}
	if (nsamples > 1)
		qsort(refs, nsamples, sizeof(*refs), cmp_ip_ref);

	for (i = 0; i < nsamples; i++) {
		const struct profile_sample *sm = &samples[refs[i].idx];
		struct addr_info *a;

		if (!n || addrs[n - 1].ip != refs[i].ip ||
		    addrs[n - 1].idle != refs[i].idle ||
		    addrs[n - 1].bucket_ip != refs[i].bucket_ip) {
			int r;

			row_init(&addrs[n].acc);
			addrs[n].orig = n;
			addrs[n].idle = refs[i].idle;
			addrs[n].bucket_ip = refs[i].bucket_ip;
			addrs[n].ip = refs[i].ip;
			r = addr_resolve(s, &addrs[n]);
			n++;  /* so a half-filled entry is freed below */
			if (r < 0)
				goto out;
			*nunknown += r;
		}
		a = &addrs[n - 1];
		sample_addr[refs[i].idx] = n - 1;
		if (row_add_sample(&a->acc, sm, nrep)) {
			error("out of memory for samples by repeat");
			goto out;
		}
	}
	ret = 0;
out:
	free(refs);
	if (ret) {
		for (i = 0; i < n; i++) {
			addr_clear(&addrs[i]);
			row_clear(&addrs[i].acc);
		}
		free(addrs);
		return ret;
	}
	*out = addrs;
	*nout = n;
	return 0;
}

