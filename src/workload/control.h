/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_CONTROL_H
#define PERPKT_CONTROL_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * The control channel between `perpkt record --peer` and `perpkt
 * serve` (like netperf's netserver): one TCP connection, text lines of
 * at most CONTROL_LINE_MAX bytes, one request and one answer at a time.
 * Both sides hold the same key (workload/control-auth.h); from the
 * setup on, every line ends in " mac=HEX" (shown as [mac] below).
 *
 *   -> "perpkt-serve 2 hello nonce=N"   the client's nonce, 64 hex digits
 *   <- "ok nonce=N key=ID"              serve's nonce, its key's name
 *   -> "perpkt-serve 2 transport=udp size=40 cpu=1 user=U host=H
 *       warmup_ms=N window_ms=N" [mac]  (cpu=-1: unpinned; window_ms=0:
 *      [profile=1 period=N freq=N        not known, -n)
 *       callchain=0|1 user_space=0|1 events=LIST cpus=all|LIST
 *       [marks=1]]                      (marks=1: count only, and mark
 *                                        the window's edges as record
 *                                        --window-marks does, for the
 *                                        QEMU plugin: --exact --net nic)
 *      [flows=N flow_cpus=C0,C1,..]     (record --flows: N responders,
 *                                        flow i's pinned to Ci; at most
 *                                        serve's --max-flows)
 *   <- "ok port=40123 [token=T]" [mac]  the responder is listening there
 *      [flows=N ports=P0,P1,..]          (one port per flow; one token)
 *      [profile=1 | profile=0 why=<the reason, to the end of the line>]
 *   -> "start" [mac]      <- "ok" [mac]  the window opens
 *   -> "stop" [mac]       <- "ok cpu=1 cpu_ns=.. wait_ns=.. switches=..
 *                             answered=.. [flows=N answered_by_flow=..]"
 *                             [mac] (with flows: all responders' sums)
 *   (start and stop again for each window of record --repeat)
 *   -> "profile" [mac]    <- "ok bytes=N sum=D" [mac] and N bytes:
 *                             serve's own profile of the windows, a JSON
 *                             document whose BLAKE2b-256 digest is D
 *   closing the connection stops the responder.
 * Any error is answered "error <message>" and the connection is closed
 * (a "profile" that cannot be made is answered "error" and the
 * connection stays); before the setup is authenticated, and when it is
 * not, the error carries no mac. A client that sends no setup within
 * CONTROL_TIMEOUT_MS, or no start within its warm-up and
 * CONTROL_SETUP_GRACE_MS (and CONTROL_RESPONDERS_MS with flows: its
 * processes' pinning), is dropped. Version 1 (before the key) is
 * refused by name either way round.
 */

#define CONTROL_VERSION 2
#define CONTROL_DEFAULT_PORT 12865
/* a setup's or its answer's list of 64 flows fits with the rest */
#define CONTROL_LINE_MAX 1024
/* Most flows one setup may ask for (serve may cap it lower). */
#define CONTROL_FLOWS_MAX 64
#define CONTROL_TIMEOUT_MS 5000
/* Beyond the warm-up the client said: forking, the first round trip. */
#define CONTROL_SETUP_GRACE_MS 10000
/* serve's start of its responders, each pinned and waiting for its
 * first message before the setup is answered: moving a process onto a
 * CPU can take seconds on a loaded host (longest with other flows'
 * traffic there already, which this wait keeps out) */
#define CONTROL_RESPONDERS_MS 30000
/* The client's wait for the setup's answer. */
#define CONTROL_SETUP_ANSWER_MS (CONTROL_TIMEOUT_MS + CONTROL_RESPONDERS_MS)

struct control_setup {
	char transport[16];
	uint32_t size;
	int cpu;
	/* the client asks serve to record its own side (record --peer) */
	int profile;
	uint64_t period, freq;   /* as record's -c and -F; 0: the default */
	int callchain;           /* -g */
	int include_user;        /* --user (user_space=1) */
	char events[128];        /* -e; "" for serve's default */
	char cpus[64];           /* --remote-cpus: "all" or a CPU list; ""
				  * for the responder's CPU (all when it is
				  * not pinned) */
	int marks;               /* count only, every CPU unless cpus says
				  * otherwise, and execute the window's
				  * marks (workload/marks.h) at start and
				  * stop */
	/* who asks, as the client says (its key vouches for it) */
	char user[33], host[65];
	uint64_t warmup_ms;      /* the client's -w: the wait before start */
	uint64_t window_ms;      /* its -d, 0 when not known (-n) */
	/* record --flows: responders asked for, 1 without flows=; flow i's
	 * pinned to flow_cpu[i] (-1: unpinned; flow_cpu[0] is cpu) */
	int flows;
	int flow_cpu[CONTROL_FLOWS_MAX];
};
/* Most bytes of a profile document on the channel. */
#define CONTROL_PROFILE_MAX (64u << 20)
/* Making and sending it: kallsyms, the JSON, a slow link. */
#define CONTROL_PROFILE_TIMEOUT_MS 60000

/* Read one line (without the newline) within timeout_ms. -1 with a
 * message in err on timeout, EOF, a line over CONTROL_LINE_MAX or a
 * NUL byte. Reads byte by byte: lines are few and short. */
/* A monotonic clock in ms, for deadlines. */
int64_t control_now_ms(void);
/* One byte read into a line (n: what the read returned): 1 the line is
 * whole in buf (the newline and a CR before it cut off, *used back to
 * 0), 0 more to come, -1 with the reason in err: the read failed, the
 * connection closed, a NUL, longer than len - 1 (at most
 * CONTROL_LINE_MAX). What control_read_line and serve's handshake read
 * lines with. */
int control_line_take(ssize_t n, char c, char *buf, size_t len, size_t *used,
		      char *err, size_t errlen);
int control_read_line(int fd, char *buf, size_t len, int timeout_ms,
		      char *err, size_t errlen);
int control_write_line(int fd, const char *line);
/* "perpkt-serve 2 hello nonce=N": the client's nonce into nonce; -1
 * with the reason in err (an older client's setup says so). */
int control_parse_hello(const char *line, char *nonce, size_t len, char *err,
			size_t errlen);
/* Parse a setup request (its mac cut off); -1 with the reason in err. */
int control_parse_setup(const char *line, struct control_setup *out,
			char *err, size_t errlen);
/* Find " key=<unsigned>" or " key=-1" in line; -1 if absent or bad. */
int control_get(const char *line, const char *key, int64_t *out);
/* The word after " key=" into buf (up to a space); -1 if absent or
 * longer than len - 1. */
int control_get_word(const char *line, const char *key, char *buf, size_t len);
/* The comma-separated numbers after " key=" (up to a space) into out,
 * each lo..hi: how many (1..max), or -1 if absent, empty, longer than
 * max or out of range. */
int control_get_list(const char *line, const char *key, int64_t *out,
		     int max, int64_t lo, int64_t hi);
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
