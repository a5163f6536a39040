// SPDX-License-Identifier: GPL-2.0-only
/* reports/model/facts.c: every flow's CPUs in the CPUs line, compact. */
#include "reports/model/facts.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

/* run facts of n flows, flow i on client[i % nc], responder server[i % ns] */
static void flows(struct run_facts *f, struct profile_flow_cpus *buf, size_t n,
		  const int *client, size_t nc, const int *server, size_t ns)
{
	size_t i;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < n; i++) {
		buf[i].client = client[i % nc];
		buf[i].server = server[i % ns];
	}
	f->flow_cpus = buf;
	f->nflows = n;
}

static void test_flow_cpus_text(void **state)
{
	static const int c01[] = { 0, 1 }, c10[] = { 1, 0 }, c0123[] = { 0, 1, 2, 3 },
			 one[] = { 1 }, any[] = { -1 }, odd[] = { 0, 1, 2, 0, 1, 2, 0, 1, 5 };
	struct profile_flow_cpus buf[64];
	struct run_facts f;
	char text[512];

	/* one flow: nothing, the CPUs line says client and responder */
	flows(&f, buf, 1, c01, 2, c10, 2);
	f.nflows = 0;
	run_facts_flow_cpus_text(&f, text, sizeof(text));
	assert_string_equal(text, "");
	flows(&f, buf, 4, c01, 2, c10, 2);
	run_facts_flow_cpus_text(&f, text, sizeof(text));
	assert_string_equal(text, "4 flows: client 0,1,0,1 responder 1,0,1,0");
	flows(&f, buf, 3, one, 1, any, 1);
	run_facts_flow_cpus_text(&f, text, sizeof(text));
	assert_string_equal(text, "3 flows: client 1,1,1 responder any");
	/* over 8 flows a repeating list is given once */
	flows(&f, buf, 16, c0123, 4, one, 1);
	run_facts_flow_cpus_text(&f, text, sizeof(text));
	assert_string_equal(text, "16 flows: client 0,1,2,3 (round robin) "
			    "responder 1 (all)");
	/* a list that does not repeat is given whole */
	flows(&f, buf, 9, odd, 9, c01, 2);
	run_facts_flow_cpus_text(&f, text, sizeof(text));
	assert_string_equal(text, "9 flows: client 0,1,2,0,1,2,0,1,5 responder "
			    "0,1 (round robin)");
	/* cut short, never past the buffer */
	flows(&f, buf, 64, c0123, 4, c01, 2);
	memset(text, 'x', sizeof(text));
	run_facts_flow_cpus_text(&f, text, 20);
	assert_int_equal(strlen(text), 19);
	assert_memory_equal(text, "64 flows: client 0,", 19);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flow_cpus_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
