// SPDX-License-Identifier: GPL-2.0-only
/* The control channel's key and the mac on each of its messages. */
#include "workload/control-auth.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "system/dirs.h"
#include "workload/control.h"

static const char *const sender[2] = { "client", "serve" };

static int sodium_ready(char *err, size_t errlen)
{
	if (sodium_init() < 0) {
		snprintf(err, errlen, "cannot initialise libsodium");
		return -1;
	}
	return 0;
}

static void hex(const unsigned char *b, size_t n, char *out)
{
	sodium_bin2hex(out, 2 * n + 1, b, n);
}

static void key_id(struct control_auth *a)
{
	unsigned char d[CONTROL_KEY_ID_HEX / 2];

	crypto_generichash(d, sizeof(d), a->key, sizeof(a->key), NULL, 0);
	hex(d, sizeof(d), a->id);
}

int control_key_default(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	struct passwd *pw;
	int n;

	if (xdg && xdg[0] == '/')
		n = snprintf(buf, len, "%s/perpkt/serve.key", xdg);
	else {
		if (!home || home[0] != '/')
			home = (pw = getpwuid(geteuid())) ? pw->pw_dir : NULL;
		if (!home || home[0] != '/')
			return -1;
		n = snprintf(buf, len, "%s/.config/perpkt/serve.key", home);
	}
	return n > 0 && (size_t)n < len ? 0 : -1;
}

/* 64 hex digits, a newline or not. */
static int parse_key(struct control_auth *a, const char *text, size_t n,
		     const char *path, char *err, size_t errlen)
{
	size_t got = 0;
	const char *end;

	while (n && (text[n - 1] == '\n' || text[n - 1] == '\r' || text[n - 1] == ' '))
		n--;
	if (n != 2 * CONTROL_KEY_BYTES ||
	    sodium_hex2bin(a->key, sizeof(a->key), text, n, NULL, &got, &end) ||
	    got != CONTROL_KEY_BYTES) {
		snprintf(err, errlen, "'%s' is not a perpkt key: it must hold %d hex "
			 "digits (32 random bytes, e.g. from 'openssl rand -hex 32')",
			 path, 2 * CONTROL_KEY_BYTES);
		return -1;
	}
	/* all zeros is a key anyone guesses */
	if (sodium_is_zero(a->key, sizeof(a->key))) {
		snprintf(err, errlen, "'%s' holds the key of all zeros, which anyone "
			 "can guess: put 32 random bytes there ('openssl rand -hex "
			 "32'), or remove it and let serve make one", path);
		return -1;
	}
	key_id(a);
	return 0;
}

/* own_only: the file must be this user's, root's too (serve's key: a
 * user who owns it could rewrite it); else root may read anyone's. */
static int key_load(struct control_auth *a, const char *path, int own_only,
		    char *err, size_t errlen)
{
	char text[2 * CONTROL_KEY_BYTES + 8];
	struct stat st;
	ssize_t n;
	int fd;

	memset(a, 0, sizeof(*a));
	if (sodium_ready(err, errlen))
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		snprintf(err, errlen, "cannot read the key '%s': %s", path,
			 strerror(errno));
		return -1;
	}
	/* root may use another user's key: that user's serve is asked */
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    (st.st_uid != geteuid() && (geteuid() != 0 || own_only)) ||
	    (st.st_mode & 077)) {
		snprintf(err, errlen, "the key '%s' must be a file of this user's "
			 "that no one else may read or write (it is %s, mode "
			 "%04o, uid %u): chmod 600 it", path,
			 S_ISREG(st.st_mode) ? "a file" : "not a regular file",
			 (unsigned)(st.st_mode & 07777), (unsigned)st.st_uid);
		close(fd);
		return -1;
	}
	n = read(fd, text, sizeof(text));
	close(fd);
	if (n < 0) {
		snprintf(err, errlen, "cannot read the key '%s': %s", path,
			 strerror(errno));
		return -1;
	}
	return parse_key(a, text, (size_t)n, path, err, errlen);
}

int control_key_load(struct control_auth *a, const char *path, char *err,
		     size_t errlen)
{
	return key_load(a, path, 0, err, errlen);
}

int control_key_load_or_make(struct control_auth *a, const char *path,
			     int *made, char *err, size_t errlen)
{
	char text[2 * CONTROL_KEY_BYTES + 2];
	int fd, bad;

	*made = 0;
	if (!access(path, F_OK) || errno != ENOENT)
		return key_load(a, path, 1, err, errlen);
	memset(a, 0, sizeof(*a));
	if (sodium_ready(err, errlen))
		return -1;
	randombytes_buf(a->key, sizeof(a->key));
	hex(a->key, sizeof(a->key), text);
	strcat(text, "\n");
	if (dirs_make_parent(path, 0700)) {
		snprintf(err, errlen, "cannot make the directory of '%s': %s", path,
			 strerror(errno));
		return -1;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		snprintf(err, errlen, "cannot make the key '%s': %s", path,
			 strerror(errno));
		return -1;
	}
	bad = write(fd, text, strlen(text)) != (ssize_t)strlen(text) || fsync(fd);
	if (close(fd) || bad) {
		snprintf(err, errlen, "cannot write the key '%s': %s", path,
			 strerror(errno));
		unlink(path);
		return -1;
	}
	sodium_memzero(text, sizeof(text));
	key_id(a);
	*made = 1;
	return 0;
}

void control_auth_nonce(struct control_auth *a)
{
	unsigned char n[CONTROL_NONCE_HEX / 2];

	randombytes_buf(n, sizeof(n));
	hex(n, sizeof(n), a->nonce[a->side]);
}

/* The mac of message seq of `from` (line without its mac). */
static void mac_of(const struct control_auth *a, int from, uint64_t seq,
		   const char *line, size_t len,
		   unsigned char out[crypto_auth_BYTES])
{
	crypto_auth_hmacsha512256_state st;
	char head[200];
	int n = snprintf(head, sizeof(head), "perpkt-serve %d %s %llu %s %s\n",
			 CONTROL_VERSION, sender[from], (unsigned long long)seq,
			 a->nonce[CONTROL_CLIENT], a->nonce[CONTROL_SERVE]);

	crypto_auth_hmacsha512256_init(&st, a->key, sizeof(a->key));
	crypto_auth_hmacsha512256_update(&st, (const unsigned char *)head, (size_t)n);
	crypto_auth_hmacsha512256_update(&st, (const unsigned char *)line, len);
	crypto_auth_hmacsha512256_final(&st, out);
}

int control_send(int fd, struct control_auth *a, const char *line)
{
	unsigned char mac[crypto_auth_BYTES];
	char out[CONTROL_LINE_MAX + 1], m[2 * crypto_auth_BYTES + 1];

	mac_of(a, a->side, a->seq[a->side], line, strlen(line), mac);
	hex(mac, sizeof(mac), m);
	if ((size_t)snprintf(out, sizeof(out), "%s mac=%s", line, m) >= sizeof(out))
		return -1;
	a->seq[a->side]++;
	return control_write_line(fd, out);
}

int control_open(struct control_auth *a, char *line)
{
	unsigned char want[crypto_auth_BYTES], got[crypto_auth_BYTES];
	char *m = strrchr(line, ' ');
	int other = !a->side;
	size_t n;

	if (!m || strncmp(m, " mac=", 5) || strlen(m + 5) != 2 * crypto_auth_BYTES ||
	    sodium_hex2bin(got, sizeof(got), m + 5, 2 * crypto_auth_BYTES, NULL,
			   &n, NULL) || n != sizeof(got))
		return -1;
	mac_of(a, other, a->seq[other], line, (size_t)(m - line), want);
	if (sodium_memcmp(want, got, sizeof(got)))
		return -1;
	*m = '\0';
	a->seq[other]++;
	return 0;
}

int control_recv(int fd, struct control_auth *a, char *buf, size_t len,
		 int timeout_ms, int *unsealed, char *err, size_t errlen)
{
	if (unsealed)
		*unsealed = 0;
	if (control_read_line(fd, buf, len, timeout_ms, err, errlen) < 0)
		return -1;
	if (!control_open(a, buf))
		return 0;
	if (!strncmp(buf, "error ", 6) && !strstr(buf, " mac=") && unsealed) {
		*unsealed = 1;
		return 0;
	}
	snprintf(err, errlen, "a message that is not from the holder of the key "
		 "(its mac does not match): '%.40s'", buf);
	return -1;
}

void control_digest(const void *data, size_t len, char out[65])
{
	unsigned char d[32];

	crypto_generichash(d, sizeof(d), data, len, NULL, 0);
	hex(d, sizeof(d), out);
}
