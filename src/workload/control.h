/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_CONTROL_H
#define PERPKT_CONTROL_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The control channel between `perpkt record --peer` and `perpkt
 * serve` (like netperf's netserver): one TCP connection, text lines of
 * at most CONTROL_LINE_MAX bytes, one request and one answer at a time.
 *
 *   -> "perpkt-serve 1 transport=udp size=40 cpu=1"   (cpu=-1: unpinned)
 *      [profile=1 period=N freq=N callchain=0|1 user=0|1 events=LIST
 *       cpus=all|LIST]
 *   <- "ok port=40123 [token=T]"       the responder is listening there
 *      [profile=1 | profile=0 why=<the reason, to the end of the line>]
 *   -> "start"            <- "ok"      the window opens
 *   -> "stop"             <- "ok cpu=1 cpu_ns=.. wait_ns=.. switches=..
 *                             answered=.."
 *   (start and stop again for each window of record --repeat)
 *   -> "profile"          <- "ok bytes=N" and N bytes: serve's own
 *                             profile of the windows, a JSON document
 *   closing the connection stops the responder.
 * Any error is answered "error <message>" and the connection is closed
 * (a "profile" that cannot be made is answered "error" and the
 * connection stays). A serve from before profiles ignores profile=1
 * and answers without profile=: the client says so.
 */

#define CONTROL_VERSION 1
#define CONTROL_DEFAULT_PORT 12865
#define CONTROL_LINE_MAX 256
#define CONTROL_TIMEOUT_MS 5000

struct control_setup {
	char transport[16];
	uint32_t size;
	int cpu;
	/* the client asks serve to record its own side (record --peer) */
	int profile;
	uint64_t period, freq;   /* as record's -c and -F; 0: the default */
	int callchain;           /* -g */
	int include_user;        /* --user */
	char events[128];        /* -e; "" for serve's default */
	char cpus[64];           /* --remote-cpus: "all" or a CPU list; ""
				  * for the responder's CPU (all when it is
				  * not pinned) */
};
/* Most bytes of a profile document on the channel. */
#define CONTROL_PROFILE_MAX (64u << 20)
/* Making and sending it: kallsyms, the JSON, a slow link. */
#define CONTROL_PROFILE_TIMEOUT_MS 60000

/* Read one line (without the newline) within timeout_ms. -1 with a
 * message in err on timeout, EOF, a line over CONTROL_LINE_MAX or a
 * NUL byte. Reads byte by byte: lines are few and short. */
int control_read_line(int fd, char *buf, size_t len, int timeout_ms,
		      char *err, size_t errlen);
int control_write_line(int fd, const char *line);
/* Parse a setup request; -1 with the reason in err. */
int control_parse_setup(const char *line, struct control_setup *out,
			char *err, size_t errlen);
/* Find " key=<unsigned>" or " key=-1" in line; -1 if absent or bad. */
int control_get(const char *line, const char *key, int64_t *out);
/* The word after " key=" into buf (up to a space); -1 if absent or
 * longer than len - 1. */
int control_get_word(const char *line, const char *key, char *buf, size_t len);
/* Exactly len bytes within timeout_ms; -1 with the reason in err. */
int control_read_bytes(int fd, char *buf, size_t len, int timeout_ms,
		       char *err, size_t errlen);
/* "HOST[:PORT]" (IPv4 address or name) into addr; default_port when
 * no port is given and default_port != 0. Prints the error. */
int control_resolve(const char *hostport, uint16_t default_port,
		    struct sockaddr_in *addr, const char *what);
/* Connect with a timeout; the fd, or -1 (printed). */
int control_connect(const struct sockaddr_in *addr, int timeout_ms,
		    const char *what);

#endif
