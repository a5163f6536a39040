// SPDX-License-Identifier: GPL-2.0-only
/* The control channel's key and macs: what one side seals the other
 * opens, and nothing else: not a changed line, a replay, another
 * connection's message or another key's; the key file's rules. */
#include "workload/control-auth.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "workload/control.h"

static char dir[] = "/tmp/perpkt-test-auth.XXXXXX";

static void pair(struct control_auth *c, struct control_auth *s)
{
	char path[256], err[300];
	int made;

	snprintf(path, sizeof(path), "%s/k/serve.key", dir);
	assert_int_equal(control_key_load_or_make(s, path, &made, err, sizeof(err)), 0);
	assert_int_equal(control_key_load(c, path, err, sizeof(err)), 0);
	assert_string_equal(c->id, s->id);
	c->side = CONTROL_CLIENT;
	s->side = CONTROL_SERVE;
	control_auth_nonce(c);
	control_auth_nonce(s);
	memcpy(c->nonce[CONTROL_SERVE], s->nonce[CONTROL_SERVE], sizeof(s->nonce[0]));
	memcpy(s->nonce[CONTROL_CLIENT], c->nonce[CONTROL_CLIENT], sizeof(c->nonce[0]));
}

/* What side a sends next, as a line, through a socket pair. */
static void sealed(struct control_auth *a, const char *line, char *out, size_t len)
{
	char err[200];
	int sv[2];

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(control_send(sv[0], a, line), 0);
	assert_int_equal(control_read_line(sv[1], out, len, 1000, err, sizeof(err)), 0);
	close(sv[0]);
	close(sv[1]);
}

static void test_seal_open(void **state)
{
	struct control_auth c, s, other;
	char m[CONTROL_LINE_MAX + 1], copy[CONTROL_LINE_MAX + 1];

	pair(&c, &s);
	sealed(&c, "start", m, sizeof(m));
	strcpy(copy, m);
	assert_int_equal(control_open(&s, m), 0);
	assert_string_equal(m, "start");
	/* the same message again: a replay */
	assert_int_equal(control_open(&s, copy), -1);
	/* a changed line */
	sealed(&c, "stop", m, sizeof(m));
	m[1] = 'x';
	assert_int_equal(control_open(&s, m), -1);
	/* the client's message does not open as serve's */
	pair(&c, &s);
	sealed(&c, "start", m, sizeof(m));
	assert_int_equal(control_open(&c, m), -1);
	/* nor on another connection (other nonces), nor without a mac */
	other = s;
	control_auth_nonce(&other);
	strcpy(copy, m);
	assert_int_equal(control_open(&other, copy), -1);
	assert_int_equal(control_open(&s, m), 0);
	strcpy(m, "start");
	assert_int_equal(control_open(&s, m), -1);
	/* answers go the other way */
	sealed(&s, "ok", m, sizeof(m));
	assert_int_equal(control_open(&c, m), 0);
	assert_string_equal(m, "ok");
}

static void test_other_key(void **state)
{
	struct control_auth c, s, mine;
	char path[256], err[300], m[CONTROL_LINE_MAX + 1];
	int made;

	pair(&c, &s);
	snprintf(path, sizeof(path), "%s/other.key", dir);
	assert_int_equal(control_key_load_or_make(&mine, path, &made, err, sizeof(err)), 0);
	assert_int_equal(made, 1);
	assert_string_not_equal(mine.id, s.id);
	memcpy(c.key, mine.key, sizeof(c.key));
	sealed(&c, "start", m, sizeof(m));
	assert_int_equal(control_open(&s, m), -1);
}

static void test_key_file(void **state)
{
	struct control_auth a;
	char path[256], err[300];
	struct stat st;
	int made;
	FILE *f;

	snprintf(path, sizeof(path), "%s/k/serve.key", dir);
	assert_int_equal(control_key_load_or_make(&a, path, &made, err, sizeof(err)), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	/* readable by others: refused */
	chmod(path, 0640);
	assert_int_equal(control_key_load(&a, path, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "chmod 600"));
	chmod(path, 0600);
	/* not a key */
	snprintf(path, sizeof(path), "%s/bad.key", dir);
	f = fopen(path, "w");
	fputs("0123\n", f);
	fclose(f);
	chmod(path, 0600);
	assert_int_equal(control_key_load(&a, path, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a perpkt key"));
	snprintf(path, sizeof(path), "%s/missing.key", dir);
	assert_int_equal(control_key_load(&a, path, err, sizeof(err)), -1);
}

static void test_hello(void **state)
{
	char n[CONTROL_NONCE_HEX + 1], err[300], line[200];

	memset(line, 0, sizeof(line));
	snprintf(line, sizeof(line), "perpkt-serve 2 hello nonce=%064d", 7);
	assert_int_equal(control_parse_hello(line, n, sizeof(n), err, sizeof(err)), 0);
	assert_int_equal(strlen(n), CONTROL_NONCE_HEX);
	/* an old client's setup: named */
	assert_int_equal(control_parse_hello("perpkt-serve 1 transport=udp size=40 cpu=0",
					     n, sizeof(n), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "authenticate with a key"));
	assert_int_equal(control_parse_hello("perpkt-serve 2 hello nonce=xyz",
					     n, sizeof(n), err, sizeof(err)), -1);
}

static int setup_dir(void **state)
{
	return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seal_open),
		cmocka_unit_test(test_other_key),
		cmocka_unit_test(test_key_file),
		cmocka_unit_test(test_hello),
	};

	return cmocka_run_group_tests(tests, setup_dir, remove_dir);
}
