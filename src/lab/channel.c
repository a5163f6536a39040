// SPDX-License-Identifier: GPL-2.0-only
#include "lab/channel.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "error.h"

static int sextet(int c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

long lab_base64_decode(const char *in, unsigned char *out)
{
	unsigned acc = 0;
	long n = 0;
	int bits = 0, pad = 0, v;

	for (; *in; in++) {
		if (*in == ' ' || *in == '\n' || *in == '\r' || *in == '\t')
			continue;
		if (*in == '=') {
			pad++;
			continue;
		}
		v = sextet((unsigned char)*in);
		if (v < 0 || pad)
			return -1;
		acc = acc << 6 | (unsigned)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[n++] = (unsigned char)(acc >> bits);
		}
	}
	/* leftover bits must be the zero padding of the last group */
	if (pad > 2 || (acc & ((1u << bits) - 1)))
		return -1;
	return n;
}

static int save(const char *dir, const char *name, const char *text,
		size_t len)
{
	unsigned char *buf = malloc(len / 4 * 3 + 4);
	char path[4096];
	long n;
	FILE *f;

	if (!buf)
		return error("out of memory");
	n = lab_base64_decode(text, buf);
	if (n < 0) {
		free(buf);
		return error("file '%s' from the guest is not valid base64: the data port garbled it",
			     name);
	}
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, n, f) != (size_t)n || fclose(f)) {
		free(buf);
		return error("cannot write '%s': %s", path, strerror(errno));
	}
	free(buf);
	return 0;
}

int lab_channel_unpack(const char *stream, const char *dir)
{
	FILE *f = fopen(stream, "r");
	char *line = NULL, *body = NULL, name[256] = "";
	size_t cap = 0, blen = 0;
	int nfiles = 0, done = 0, in_file = 0;
	ssize_t n;

	if (!f && errno == ENOENT)
		return 0;  /* QEMU ended before it opened its ports */
	if (!f)
		return error("cannot open '%s': %s", stream, strerror(errno));
	while (!done && (n = getline(&line, &cap, f)) >= 0) {
		char *p;

		line[strcspn(line, "\r\n")] = '\0';
		if (!strncmp(line, "perpkt-file ", 12) && !in_file) {
			snprintf(name, sizeof(name), "%s", line + 12);
			/* a name is one plain component */
			if (!name[0] || strchr(name, '/') || name[0] == '.')
				break;
			in_file = 1;
			blen = 0;
			if (body)
				body[0] = '\0';  /* an empty file has no line */
		} else if (!strcmp(line, "perpkt-end") && in_file) {
			if (save(dir, name, body ? body : "", blen)) {
				nfiles = -1;
				break;
			}
			nfiles++;
			in_file = 0;
		} else if (!strcmp(line, "perpkt-done") && !in_file) {
			done = 1;
		} else if (in_file) {
			p = realloc(body, blen + n + 1);
			if (!p) {
				nfiles = error("out of memory");
				break;
			}
			body = p;
			memcpy(body + blen, line, strlen(line) + 1);
			blen += strlen(line);
		}
	}
	free(line);
	free(body);
	fclose(f);
	if (nfiles < 0)
		return -1;
	return done ? nfiles : 0;
}

int lab_gunzip(const char *gz, const char *out)
{
	gzFile in = gzopen(gz, "rb");
	FILE *f;
	char buf[65536];
	int n, ret = 0;

	if (!in)
		return error("the guest sent no '%s': %s", gz, strerror(errno));
	f = fopen(out, "w");
	if (!f) {
		gzclose(in);
		return error("cannot write '%s': %s", out, strerror(errno));
	}
	while ((n = gzread(in, buf, sizeof(buf))) > 0)
		if (fwrite(buf, 1, (size_t)n, f) != (size_t)n) {
			ret = error("cannot write '%s': %s", out, strerror(errno));
			break;
		}
	if (n < 0) {
		int zerr;

		ret = error("'%s' is not whole gzip data: %s", gz, gzerror(in, &zerr));
	}
	gzclose(in);
	if (fclose(f) && !ret)
		ret = error("cannot write '%s': %s", out, strerror(errno));
	return ret;
}
