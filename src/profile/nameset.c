// SPDX-License-Identifier: GPL-2.0-only
/* A Bloom filter of names as text: see nameset.h. */
#include "profile/nameset.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAMESET_PROBES 8
#define NAMESET_BITS_PER_NAME 12

static const char b64[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* FNV-1a, 64 bits, and a second hash from it for double hashing */
static void hashes(const char *s, uint64_t *h1, uint64_t *h2)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ull;
	}
	*h1 = h;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	*h2 = h | 1;
}

char *nameset_build(const char *const *names, size_t n)
{
	uint64_t nbits, nbytes, i, k;
	unsigned char *bits;
	char *out, *p;
	int head;

	if (!n)
		return NULL;
	nbits = (uint64_t)n * NAMESET_BITS_PER_NAME;
	nbytes = (nbits + 23) / 24 * 3;  /* whole base64 quads */
	nbits = nbytes * 8;
	bits = calloc(nbytes, 1);
	out = malloc(64 + nbytes / 3 * 4 + 1);
	if (!bits || !out) {
		free(bits);
		free(out);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		uint64_t h1, h2;

		hashes(names[i], &h1, &h2);
		for (k = 0; k < NAMESET_PROBES; k++) {
			uint64_t b = (h1 + k * h2) % nbits;

			bits[b / 8] |= (unsigned char)(1u << (b % 8));
		}
	}
	head = snprintf(out, 64, "bloom1:%d:%llu:", NAMESET_PROBES,
			(unsigned long long)nbits);
	p = out + head;
	for (i = 0; i < nbytes; i += 3) {
		uint32_t v = (uint32_t)bits[i] << 16 | (uint32_t)bits[i + 1] << 8 |
			     bits[i + 2];

		*p++ = b64[v >> 18 & 63];
		*p++ = b64[v >> 12 & 63];
		*p++ = b64[v >> 6 & 63];
		*p++ = b64[v & 63];
	}
	*p = '\0';
	free(bits);
	return out;
}

/* Bit b of the base64 text at data (4 characters per 3 bytes); -1 when
 * a character is not base64. */
static int bit_at(const char *data, uint64_t b)
{
	uint64_t byte = b / 8, quad = byte / 3;
	const char *q = data + quad * 4;
	uint32_t v = 0;
	int i;

	for (i = 0; i < 4; i++) {
		const char *c = q[i] ? strchr(b64, q[i]) : NULL;

		if (!c)
			return -1;
		v = v << 6 | (uint32_t)(c - b64);
	}
	return (int)(v >> (8 * (2 - byte % 3) + b % 8) & 1);
}

int nameset_has(const char *set, const char *name)
{
	unsigned long long nbits;
	uint64_t h1, h2, k;
	int probes, used = 0;

	if (!set || sscanf(set, "bloom1:%d:%llu:%n", &probes, &nbits, &used) != 2 ||
	    !used || probes < 1 || probes > 64 || !nbits || nbits % 24 ||
	    strlen(set + used) != nbits / 6)
		return -1;
	hashes(name, &h1, &h2);
	for (k = 0; k < (uint64_t)probes; k++) {
		int v = bit_at(set + used, (h1 + k * h2) % nbits);

		if (v <= 0)
			return v;
	}
	return 1;
}
