/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_RECORD_WINDOW_FIFO_H
#define PERPKT_RECORD_WINDOW_FIFO_H

/*
 * record --window-fifo CTL[,ACK]: another tool told of every window's
 * edges in the protocol of perf record --control fifo:CTL,ACK: "enable"
 * before the window opens, "disable" after it closes, each waited for
 * until "ack" comes back on ACK (when given). So
 *
 *   perf record --control fifo:ctl,ack -D -1 -a -- \
 *           perpkt record --window-fifo ctl,ack
 *
 * samples exactly perpkt's windows and none of its warm-up or gaps.
 * --gap-fifo: the same for the gaps between the windows (--between):
 * enabled as a window closes, disabled before the next one opens, so
 * two tools sample one continuous workload by turns.
 */
struct window_fifo {
	int ctl, ack;		/* -1: none */
	const char *opt;	/* the option, for messages */
	int timeout_ms;		/* how long an ack may take */
	char ctl_path[256];
};

/* How long the other side may take to act on a command by default
 * (--fifo-timeout): perf enables its events on every CPU before it acks. */
#define WINDOW_FIFO_TIMEOUT_S 10

/* Open "CTL[,ACK]" given to option opt, acks awaited timeout seconds
 * (0: the default); -1 after saying why (not a FIFO, nobody reading). */
int window_fifo_open(struct window_fifo *f, const char *spec, const char *opt,
		     double timeout);
/* Send cmd ("enable", "disable") and wait for the ack; -1 after saying
 * why. A closed f (ctl -1) does nothing. */
int window_fifo_edge(struct window_fifo *f, const char *cmd);
void window_fifo_close(struct window_fifo *f);

#endif
