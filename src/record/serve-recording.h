/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_SERVE_RECORDING_H
#define PERPKT_SERVE_RECORDING_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "workload/control.h"
#include "workload/server.h"

/*
 * The responder's side of a two-host run: `perpkt serve` samples its
 * own kernel on the responder's CPU (with --flows every responder's;
 * every online CPU when one is not pinned) between the client's start and stop, and
 * hands the result over as a profile document of its own, divided by
 * the messages its responder answered in those windows. The client
 * stores it as the profile's "remote" side (record/workload-builtin.c).
 * Asked with marks (record --kernel --exact --net nic), it counts only,
 * on every CPU, and executes the window's marks at start and stop, so
 * the QEMU plugin in the responder's guest counts that window.
 */

struct serve_recording;

/* Counters opened, disabled, on the responder's CPUs; -1 with the
 * reason for the client in why (no permission to sample here, no
 * event that can be measured). */
int serve_recording_open(struct serve_recording **out,
			 const struct control_setup *rq, const pid_t *responders,
			 int n, char *why, size_t whylen);
/* One window of the client's: counters on at start, off at stop;
 * `answered` is the responder's count of messages at that moment. */
int serve_recording_start(struct serve_recording *r, uint64_t answered);
int serve_recording_stop(struct serve_recording *r, uint64_t answered);
/* Empty the rings; while a window is open, often enough for them. */
void serve_recording_drain(struct serve_recording *r);
/* The profile of all windows as a JSON document (malloc'd, *len
 * bytes), saying who asked (`client`, condition peer.client); -1 with
 * the reason in why. */
int serve_recording_document(struct serve_recording *r, const char *command,
			     const char *client, char **text, size_t *len,
			     char *why, size_t whylen);
void serve_recording_close(struct serve_recording *r);

/* The functions above, for the server (workload/server.h). */
extern const struct serve_recorder serve_recording_ops;

#endif
