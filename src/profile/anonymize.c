// SPDX-License-Identifier: GPL-2.0-only
/* Placeholders for what identifies a machine, so a report can go public. */
#include "profile/anonymize.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

enum kind { K_HOST, K_ADDR4, K_ADDR6, K_MAC, K_IF, K_CMDLINE, K_MAX };

static const char *const prefix[K_MAX] = {
	"host", "addr", "addr6-", "mac", "if", "cmdline",
};

struct mapping {
	enum kind kind;
	char *from, *to;
};

struct anonymizer {
	struct mapping *map;
	size_t n, cap;
	unsigned count[K_MAX];
	int oom;
};

struct anonymizer *anonymizer_new(void)
{
	return calloc(1, sizeof(struct anonymizer));
}

void anonymizer_free(struct anonymizer *a)
{
	size_t i;

	if (!a)
		return;
	for (i = 0; i < a->n; i++) {
		free(a->map[i].from);
		free(a->map[i].to);
	}
	free(a->map);
	free(a);
}

/* The placeholder of `from` (len bytes), made on first sight (or
 * `same`, another value's placeholder: a host's short name). */
static const char *map_as(struct anonymizer *a, enum kind k,
			  const char *from, size_t len, const char *same)
{
	struct mapping *m;
	char to[32];
	size_t i;

	for (i = 0; i < a->n; i++)
		if (a->map[i].kind == k && strlen(a->map[i].from) == len &&
		    !memcmp(a->map[i].from, from, len))
			return a->map[i].to;
	if (a->n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 16;

		m = realloc(a->map, cap * sizeof(*m));
		if (!m) {
			a->oom = 1;
			return "?";
		}
		a->map = m;
		a->cap = cap;
	}
	if (same)
		snprintf(to, sizeof(to), "%s", same);
	else
		snprintf(to, sizeof(to), "%s%u", prefix[k], ++a->count[k]);
	m = &a->map[a->n];
	m->kind = k;
	m->from = strndup(from, len);
	m->to = strdup(to);
	if (!m->from || !m->to) {
		free(m->from);
		free(m->to);
		a->oom = 1;
		return "?";
	}
	a->n++;
	return m->to;
}

static const char *placeholder(struct anonymizer *a, enum kind k,
			       const char *from, size_t len)
{
	return map_as(a, k, from, len, NULL);
}

static int word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Length of a dotted quad at s (not part of a longer number), else 0. */
static size_t ipv4_len(const char *s)
{
	size_t i = 0;
	int part, digits;

	for (part = 0; part < 4; part++) {
		for (digits = 0; isdigit((unsigned char)s[i]) && digits < 4; digits++)
			i++;
		if (!digits || digits > 3)
			return 0;
		if (part < 3 && s[i++] != '.')
			return 0;
	}
	return word_char(s[i]) || (s[i] == '.' && isdigit((unsigned char)s[i + 1])) ? 0 : i;
}

/* MAC "aa:bb:cc:dd:ee:ff": 17 bytes, else 0. */
static size_t mac_len(const char *s)
{
	int i;

	for (i = 0; i < 17; i++)
		if (i % 3 == 2 ? s[i] != ':' : !isxdigit((unsigned char)s[i]))
			return 0;
	return word_char(s[17]) || s[17] == ':' ? 0 : 17;
}

/* An IPv6 address: hex groups with "::" or at least three colons. */
static size_t ipv6_len(const char *s)
{
	size_t i = 0, colons = 0;
	int dbl = 0;

	while (isxdigit((unsigned char)s[i]) || s[i] == ':') {
		if (s[i] == ':') {
			colons++;
			dbl |= s[i + 1] == ':';
		}
		i++;
	}
	if (word_char(s[i]) || i < 3 || (!dbl && colons < 3) || colons > 7)
		return 0;
	return i;
}

static int loopback(const char *s, size_t len)
{
	return (len >= 4 && !strncmp(s, "127.", 4)) ||
	       (len == 7 && !strncmp(s, "0.0.0.0", 7)) ||
	       (len == 3 && !strncmp(s, "::1", 3)) ||
	       (len == 2 && !strncmp(s, "::", 2));
}

/* A known word (host or interface) starting at s, whole-word only. */
static const struct mapping *known_word(const struct anonymizer *a, const char *s)
{
	size_t i, len;

	for (i = 0; i < a->n; i++) {
		if (a->map[i].kind != K_HOST && a->map[i].kind != K_IF)
			continue;
		len = strlen(a->map[i].from);
		if (!strncmp(s, a->map[i].from, len) && !word_char(s[len]))
			return &a->map[i];
	}
	return NULL;
}

/* s with every address and known name replaced; NULL when out of memory. */
static char *scrub(struct anonymizer *a, const char *s)
{
	const char *begin = s;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (!f)
		return NULL;
	while (*s) {
		int start = s == begin || !word_char(s[-1]);
		const struct mapping *w;
		size_t n = 0;
		enum kind k = K_MAX;

		if (start && (n = mac_len(s)))
			k = K_MAC;
		else if (start && (n = ipv4_len(s)))
			k = K_ADDR4;
		else if (start && (n = ipv6_len(s)))
			k = K_ADDR6;
		if (k != K_MAX && !loopback(s, n)) {
			fputs(placeholder(a, k, s, n), f);
			s += n;
			continue;
		}
		if (start && (w = known_word(a, s))) {
			fputs(w->to, f);
			s += strlen(w->from);
			continue;
		}
		n = n ? n : 1;
		fwrite(s, 1, n, f);
		s += n;
	}
	fclose(f);
	return out;
}

static void replace(struct anonymizer *a, char **s)
{
	char *t;

	if (!*s)
		return;
	t = scrub(a, *s);
	if (!t) {
		a->oom = 1;
		return;
	}
	free(*s);
	*s = t;
}

/* Interface names from condition net.interfaces ("eth0 (virtio_net:
 * ...); lo (...)") and the quoted one of net.path ("veth pair 'veth0'"). */
static void learn_interfaces(struct anonymizer *a, const struct profile *p)
{
	const char *v = profile_condition(p, "net.interfaces"), *q;

	while (v && *v) {
		size_t n = strcspn(v, " ;(");

		if (n && !(n == 2 && !strncmp(v, "lo", 2)))
			placeholder(a, K_IF, v, n);
		v = strstr(v, "; ");
		v = v ? v + 2 : NULL;
	}
	v = profile_condition(p, "net.path");
	if (v && (q = strstr(v, "pair '")) && strchr(q + 6, '\''))
		placeholder(a, K_IF, q + 6, (size_t)(strchr(q + 6, '\'') - q - 6));
}

int anonymize_profile(struct anonymizer *a, struct profile *p)
{
	size_t i;

	if (p->hostname && *p->hostname) {
		char to[32];

		/* copied: the table may move when the next entry is added */
		snprintf(to, sizeof(to), "%s", placeholder(a, K_HOST, p->hostname,
							   strlen(p->hostname)));
		/* its short name is the same host: "db7" of "db7.example.org" */
		if (strchr(p->hostname, '.'))
			map_as(a, K_HOST, p->hostname,
			       (size_t)(strchr(p->hostname, '.') - p->hostname), to);
	}
	learn_interfaces(a, p);
	replace(a, &p->hostname);
	replace(a, &p->command);
	replace(a, &p->kernel_version);
	replace(a, &p->cpu_model);
	for (i = 0; i < p->nconditions; i++) {
		struct profile_condition *c = &p->conditions[i];

		if (!strcmp(c->key, "kernel.cmdline")) {
			const char *to = placeholder(a, K_CMDLINE, c->value,
						     strlen(c->value));
			char *t = strdup(to);

			if (t) {
				free(c->value);
				c->value = t;
			}
			continue;
		}
		replace(a, &c->value);
	}
	for (i = 0; i < p->nirqs; i++)
		replace(a, &p->irqs[i].desc);
	if (a->oom)
		return error("out of memory anonymizing the profile");
	return 0;
}
