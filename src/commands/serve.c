// SPDX-License-Identifier: GPL-2.0-only
/*
 * perpkt serve: the responder side for `perpkt record --peer`, like
 * netperf's netserver. Its options, its key (src/workload/control-auth.h)
 * and the server (src/workload/server.c: one client at a time, each
 * authenticated in src/workload/serve-handshake.c), handed the recorder
 * of this side's kernel (src/record/serve-recording.c).
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <sodium.h>

#include "commands/commands.h"
#include "commands/options.h"
#include "workload/control-auth.h"
#include "workload/control.h"
#include "workload/server.h"
#include "error.h"
#include "exitcode.h"
#include "parse.h"
#include "reports/render/render.h"
#include "record/serve-recording.h"

static const struct opt_usage serve_usage = {
	.head =
"usage: perpkt serve [options]\n"
"\n"
"Answer 'perpkt record --peer' runs: a responder with a control channel.\n"
"\n",
};

struct serve_options {
	const char *bind;
	const char *key;
	uint16_t port;
	int max_flows;
	int once, quiet;
};

static int opt_port(const struct opt *o, const char *arg, void *at)
{
	uint64_t v;

	(void)o;
	if (parse_u64(arg, "--port", 1, 65535, &v))
		return -1;
	*(uint16_t *)at = (uint16_t)v;
	return 0;
}

/* -q silences serve's own lines too */
static int opt_quiet(const struct opt *o, const char *arg, void *at)
{
	*(int *)at = 1;
	return opt_verbosity(o, arg, at);
}

#define A(field) OPT_AT(struct serve_options, field)
static const struct opt serve_opts[] = {
	OPT_STRING('b', "bind", A(bind), "ADDR",
		   "IPv4 address to listen on (default 127.0.0.1;\n"
		   "give the address a peer reaches this host by)"),
	OPT_CALLBACK('p', "port", A(port), "N",
		     "control port (default 12865)", opt_port),
	OPT_STRING('k', "key", A(key), "FILE",
		   "the key clients must hold (default\n"
		   "~/.config/perpkt/serve.key; made, mode 0600,\n"
		   "when missing): copy it to each client host,\n"
		   "for record's peer-key option"),
	OPT_BOOL('1', "once", A(once),
		 "exit after one authenticated client (one\n"
		 "without the key does not end it)"),
	OPT_INT(0, "max-flows", A(max_flows), 1, CONTROL_FLOWS_MAX, "N",
		"answer at most N flows of one client (each a\n"
		"responder process and port of its own;\n"
		"default 16, at most 64)"),
	OPT_GROUP(
"\n"
"A client proves it holds the key (a challenge and a mac on every\n"
"message; the key never crosses the wire) before it gets anything: a\n"
"responder, this host's conditions, a profile. One client at a time:\n"
"others are told 'busy'; a client that does not start within its\n"
"warm-up and 10 s is dropped. The data port answers only the address\n"
"that set the run up. Run as root (or with CAP_PERFMON) it also\n"
"records its own kernel over the client's window, for the profile's\n"
"remote side, saying who asked; otherwise the client is told why not.\n"
"Over icmp no responder runs: this host's kernel answers the echo\n"
"requests, and this side is per echo reply it sent in the window\n"
"(/proc/net/snmp's Icmp OutEchoReps: anyone's pings count too).\n"
"\n"),
	OPT_CALLBACK_NUM('q', "quiet", A(quiet), NULL, QUIET_HELP,
			 opt_quiet, 'q'),
	OPT_CALLBACK_NUM('v', "verbose", 0, NULL, VERBOSE_HELP,
			 opt_verbosity, 'v'),
	OPT_HELP(),
	OPT_END()
};
#undef A

int cmd_serve(int argc, char **argv)
{
	struct serve_options o = { .bind = "127.0.0.1", .port = CONTROL_DEFAULT_PORT,
				   .max_flows = SERVE_DEFAULT_MAX_FLOWS };
	struct sockaddr_in addr = { .sin_family = AF_INET };
	struct control_auth key;
	struct serve_config cfg;
	char keypath[4096], err[400];
	int made, code, next;

	next = options_parse(argc, argv, serve_opts, &serve_usage, &o);

	if (next <= 0)
		return next ? RESULT_USAGE : RESULT_OK;
	if (next < argc) {
		error("unexpected argument '%s'", argv[next]);
		options_usage_error(&serve_usage);
		return RESULT_USAGE;
	}
	if (inet_pton(AF_INET, o.bind, &addr.sin_addr) != 1) {
		error("invalid --bind address '%s': give an IPv4 address", o.bind);
		return RESULT_USAGE;
	}
	addr.sin_port = htons(o.port);
	if (!o.key && control_key_default(keypath, sizeof(keypath))) {
		error("no home for the key: give --key FILE");
		return RESULT_USAGE;
	}
	if (o.key)
		snprintf(keypath, sizeof(keypath), "%s", o.key);
	if (control_key_load_or_make(&key, keypath, &made, err, sizeof(err))) {
		error("%s", err);
		return RESULT_FAILURE;
	}
	if (!o.quiet)
		info("serve: %s key %s in '%s': copy that file to each client "
		     "host (mode 0600) and give it to record --peer-key",
		     made ? "made the new" : "clients authenticate with", key.id,
		     keypath);
	cfg = (struct serve_config){ .bind = o.bind, .addr = addr, .key = &key,
				     .recorder = &serve_recording_ops,
				     .max_flows = o.max_flows, .once = o.once, .quiet = o.quiet };
	code = serve_run(&cfg);
	sodium_memzero(&key, sizeof(key));
	return code;
}
