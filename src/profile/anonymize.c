// SPDX-License-Identifier: GPL-2.0-only
/* Placeholders for what identifies a machine, so a report can go public. */
#include "profile/anonymize.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "error.h"
#include "profile/fields.h"

enum kind {
	K_HOST, K_ADDR4, K_ADDR6, K_MAC, K_IF, K_CMDLINE, K_USER, K_PATH,
	K_VALUE, K_MAX
};

static const char *const prefix[K_MAX] = {
	"host", "addr", "addr6-", "mac", "if", "cmdline", "user", "path",
	"value",
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
	if (ARRAY_GROW(a->map, a->n + 1, a->cap)) {
		a->oom = 1;
		return "?";
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

/* The longest known word (host, interface, user, a secret value) at s,
 * whole-word. */
static const struct mapping *known_word(const struct anonymizer *a, const char *s)
{
	const struct mapping *best = NULL;
	size_t i, len, blen = 0;

	for (i = 0; i < a->n; i++) {
		enum kind k = a->map[i].kind;

		if (k != K_HOST && k != K_IF && k != K_USER && k != K_VALUE)
			continue;
		len = strlen(a->map[i].from);
		if (len > blen && !strncmp(s, a->map[i].from, len) &&
		    !word_char(s[len]) &&
		    !(s[len] == '.' && word_char(s[len + 1])))
			best = &a->map[i], blen = len;
	}
	return best;
}

/* A character that may come before a path or a --key=VALUE token. */
static int token_start(const char *begin, const char *s)
{
	return s == begin || strchr(" \t'\"=(,;:[<", s[-1]);
}

static size_t token_len(const char *s)
{
	return strcspn(s, " \t\n'\"),;<>]");
}

/* Paths that name no one: the system's own. */
static int system_path(const char *s, size_t len)
{
	static const char *const keep[] = {
		"/sys/", "/proc/", "/dev/", "/usr/", "/bin/", "/sbin/", "/lib/",
		"/lib64/", "/etc/", "/boot/", "/run/netns/", "/run/perpkt/",
	};
	size_t i;

	if (len == 1)
		return 1;
	for (i = 0; i < sizeof(keep) / sizeof(keep[0]); i++)
		if (len >= strlen(keep[i]) - 1 && !strncmp(s, keep[i], strlen(keep[i]) - 1) &&
		    (len == strlen(keep[i]) - 1 || s[strlen(keep[i]) - 1] == '/'))
			return 1;
	return 0;
}

/* Length of a path of someone's at s ("/home/...", "./x", "~/x"),
 * else 0. */
static size_t path_len(const char *begin, const char *s)
{
	size_t n;

	if (!token_start(begin, s))
		return 0;
	if (!(s[0] == '/' || !strncmp(s, "./", 2) || !strncmp(s, "../", 3) ||
	      s[0] == '~'))
		return 0;
	n = token_len(s);
	if (s[0] == '~' && !memchr(s, '/', n) && n < 2)
		return 0;
	return s[0] == '/' && system_path(s, n) ? 0 : n;
}

/* "--key=VALUE": the length of "--key=" at s, else 0. */
static size_t key_len(const char *begin, const char *s)
{
	size_t i = 2;

	if (strncmp(s, "--", 2) || !token_start(begin, s) || !isalnum((unsigned char)s[2]))
		return 0;
	while (isalnum((unsigned char)s[i]) || s[i] == '-' || s[i] == '_')
		i++;
	return s[i] == '=' && token_len(s + i + 1) ? i + 1 : 0;
}

/* A host name by its form: labels with a top-level domain at the end
 * ("db7.example.org"); kernel names such as "foo.isra.0" are not. */
static size_t fqdn_len(const char *s)
{
	static const char *const tld[] = {
		"com", "org", "net", "edu", "gov", "mil", "int", "io", "co",
		"uk", "de", "fr", "nl", "se", "no", "fi", "dk", "ch", "at", "be",
		"it", "es", "pl", "cz", "ru", "cn", "jp", "kr", "in", "au", "nz",
		"ca", "us", "eu", "local", "lan", "internal", "intranet", "corp",
		"home", "arpa", "localdomain", "cloud", "info", "biz",
	};
	size_t i = 0, labels = 0, last = 0, t;

	for (;;) {
		size_t start = i;

		while (isalnum((unsigned char)s[i]) || s[i] == '-')
			i++;
		if (i == start)
			return 0;
		labels++;
		last = start;
		if (s[i] != '.' || !isalnum((unsigned char)s[i + 1]))
			break;
		i++;
	}
	if (labels < 2 || word_char(s[i]))
		return 0;
	for (t = 0; t < sizeof(tld) / sizeof(tld[0]); t++)
		if (i - last == strlen(tld[t]) && !strncasecmp(s + last, tld[t], i - last))
			return i;
	return 0;
}

/* s with every identifying thing replaced; NULL when out of memory. */
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

		if ((n = key_len(begin, s))) {
			size_t v = token_len(s + n);

			fwrite(s, 1, n, f);
			fputs(placeholder(a, K_VALUE, s + n, v), f);
			s += n + v;
			continue;
		}
		if ((n = path_len(begin, s)))
			k = K_PATH;
		else if (start && (n = mac_len(s)))
			k = K_MAC;
		else if (start && (n = ipv4_len(s)))
			k = K_ADDR4;
		else if (start && (n = ipv6_len(s)))
			k = K_ADDR6;
		else if (start && (s == begin || s[-1] != '-') && (n = fqdn_len(s)))
			k = K_HOST;
		if (k != K_MAX && !(k == K_ADDR4 || k == K_ADDR6 ? loopback(s, n) : 0)) {
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

/* A word (up to len bytes) as a name of kind k, unless it is no one's. */
static void learn_word(struct anonymizer *a, enum kind k, const char *s, size_t len)
{
	static const char *const nobody[] = { "root", "nobody", "lo", "localhost" };
	size_t i;

	if (!len || ipv4_len(s) == len || ipv6_len(s) == len)
		return;
	for (i = 0; i < sizeof(nobody) / sizeof(nobody[0]); i++)
		if (len == strlen(nobody[i]) && !strncmp(s, nobody[i], len))
			return;
	placeholder(a, k, s, len);
}

static size_t name_len(const char *s)
{
	size_t n = 0;

	while (word_char(s[n]) || s[n] == '-' || s[n] == '.')
		n++;
	while (n && s[n - 1] == '.')
		n--;
	return n;
}

/* User and host names a string gives away: /home/NAME, ~NAME/,
 * NAME@HOST, "user NAME on host HOST" (serve's peer.client); in a
 * command line (cmd) also "-u NAME", "--user NAME". */
static void learn_names(struct anonymizer *a, const char *s, int cmd)
{
	static const char *const user_before[] = {
		"/home/", "/Users/", "/var/home/", "-u ", "--user ", "--user=",
		"--login ", "--login=",
	};
	const char *p, *at;
	size_t i, n = cmd ? sizeof(user_before) / sizeof(user_before[0]) : 3;

	if (!s)
		return;
	for (i = 0; i < n; i++)
		for (p = strstr(s, user_before[i]); p; p = strstr(p + 1, user_before[i]))
			if (p == s || !word_char(p[-1]))
				learn_word(a, K_USER, p + strlen(user_before[i]),
					   name_len(p + strlen(user_before[i])));
	for (p = strchr(s, '~'); p; p = strchr(p + 1, '~'))
		if ((p == s || !word_char(p[-1])) && p[1 + name_len(p + 1)] == '/')
			learn_word(a, K_USER, p + 1, name_len(p + 1));
	for (at = strchr(s, '@'); at; at = strchr(at + 1, '@')) {
		const char *u = at;

		while (u > s && (word_char(u[-1]) || u[-1] == '-' || u[-1] == '.'))
			u--;
		if (u < at && word_char(at[1])) {
			learn_word(a, K_USER, u, (size_t)(at - u));
			learn_word(a, K_HOST, at + 1, name_len(at + 1));
		}
	}
	/* serve's "key 0a1b2c3d": which key a client had */
	for (p = strstr(s, "key "); p; p = strstr(p + 1, "key ")) {
		size_t h = strspn(p + 4, "0123456789abcdef");

		if (h >= 8 && !word_char(p[4 + h]))
			placeholder(a, K_VALUE, p + 4, h);
	}
	for (p = strstr(s, "user "); p; p = strstr(p + 1, "user ")) {
		size_t u = name_len(p + 5);

		if (u && !strncmp(p + 5 + u, " on host ", 9)) {
			learn_word(a, K_USER, p + 5, u);
			learn_word(a, K_HOST, p + 5 + u + 9, name_len(p + 5 + u + 9));
		}
	}
}

/* The peers of perpkt's own command line: --peer HOST[:PORT], --echo. */
static void learn_peers(struct anonymizer *a, const char *cmd)
{
	static const char *const opt[] = { "--peer ", "--peer=", "--echo ", "--echo=" };
	const char *p;
	size_t i;

	if (!cmd)
		return;
	for (i = 0; i < sizeof(opt) / sizeof(opt[0]); i++)
		for (p = strstr(cmd, opt[i]); p; p = strstr(p + 1, opt[i]))
			learn_word(a, K_HOST, p + strlen(opt[i]),
				   strcspn(p + strlen(opt[i]), ": "));
}

/* Interface names from condition net.interfaces ("eth0 (virtio_net:
 * ...); lo (...)"), the quoted one of net.path ("veth pair 'veth0'")
 * and a --per unit's ("packets:eth0"). */
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
	v = p->unit.spec;
	if (v && (q = strchr(v, ':')) && strncmp(v, "udp", 3) &&
	    strncmp(v, "tcp", 3) && strncmp(v, "count", 5) && strncmp(v, "irqs", 4))
		learn_word(a, K_IF, q + 1, strcspn(q + 1, " "));
}

/* Every string field of p, for f: one list, so a field added to the
 * profile is added here once (t0613 plants a marker in each). */
static void each_string(struct anonymizer *a, struct profile *p,
			void (*f)(struct anonymizer *, char **))
{
	const struct profile_field *fl;
	size_t i, k;

	f(a, &p->hostname);	/* first: its placeholder is host1 */
	f(a, &p->command);
	f(a, &p->tool_version);
	f(a, &p->created);
	f(a, &p->kernel_release);
	f(a, &p->kernel_version);
	f(a, &p->build_id);
	f(a, &p->machine);
	f(a, &p->cpu_model);
	f(a, &p->unit.spec);
	f(a, &p->unit.name);
	f(a, &p->unit.source);
	f(a, &p->workload_command);
	f(a, &p->transport);
	f(a, &p->network);
	f(a, &p->mode);
	f(a, &p->fallback_reason);
	f(a, &p->clock_source);
	f(a, &p->remote_missing);
	for (i = 0; i < p->nevents; i++) {
		f(a, &p->events[i].name);
		f(a, &p->events[i].requested);
		f(a, &p->events[i].pmu);
		f(a, &p->events[i].encoding);
		f(a, &p->events[i].unit);
	}
	for (i = 0; i < p->nksyms; i++) {
		f(a, &p->ksyms[i].name);
		f(a, &p->ksyms[i].module);
	}
	for (i = 0; i < p->nmodules; i++) {
		f(a, &p->modules[i].name);
		for (k = 0; k < p->modules[i].nsections; k++)
			f(a, &p->modules[i].sections[k].name);
	}
	for (i = 0; i < p->ncounts; i++)
		for (fl = profile_count_fields; fl->key; fl++)
			if (fl->flags & PF_STRING)
				f(a, PROFILE_FIELD(&p->counts[i], fl, char *));
	for (i = 0; i < p->nirqs; i++) {
		f(a, &p->irqs[i].kind);
		f(a, &p->irqs[i].name);
		f(a, &p->irqs[i].desc);
	}
	for (i = 0; i < p->nmissing; i++) {
		f(a, &p->missing[i].name);
		f(a, &p->missing[i].reason);
	}
	for (i = 0; i < p->nconditions; i++)
		f(a, &p->conditions[i].value);
}

static void learn_field(struct anonymizer *a, char **s)
{
	learn_names(a, *s, 0);
}

/* kernel.cmdline as one placeholder: any part of it may be a secret. */
static void replace_cmdline(struct anonymizer *a, struct profile *p)
{
	size_t i;

	for (i = 0; i < p->nconditions; i++) {
		struct profile_condition *c = &p->conditions[i];
		char *t;

		if (strcmp(c->key, "kernel.cmdline"))
			continue;
		t = strdup(placeholder(a, K_CMDLINE, c->value, strlen(c->value)));
		if (!t) {
			a->oom = 1;
			continue;
		}
		free(c->value);
		c->value = t;
	}
}

static void learn_host(struct anonymizer *a, const char *h)
{
	char to[32];

	if (!h || !*h)
		return;
	/* copied: the table may move when the next entry is added */
	snprintf(to, sizeof(to), "%s", placeholder(a, K_HOST, h, strlen(h)));
	/* its short name is the same host: "db7" of "db7.example.org" */
	if (strchr(h, '.'))
		map_as(a, K_HOST, h, (size_t)(strchr(h, '.') - h), to);
}

int anonymize_profile(struct anonymizer *a, struct profile *p)
{
	struct profile *side[2] = { p, p->remote };
	int i;

	/* learn from both sides first: a name seen anywhere goes everywhere */
	for (i = 0; i < 2 && side[i]; i++)
		learn_host(a, side[i]->hostname);
	for (i = 0; i < 2 && side[i]; i++) {
		learn_interfaces(a, side[i]);
		learn_peers(a, side[i]->command);
		learn_names(a, side[i]->command, 1);
		learn_names(a, side[i]->workload_command, 1);
		replace_cmdline(a, side[i]);
		each_string(a, side[i], learn_field);
	}
	for (i = 0; i < 2 && side[i]; i++)
		each_string(a, side[i], replace);
	if (a->oom)
		return error("out of memory anonymizing the profile");
	return 0;
}
