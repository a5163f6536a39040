// SPDX-License-Identifier: GPL-2.0-only
/*
 * The responder: the forked process that answers each request. Its loop
 * is the transport's respond op (udp.c, tcp.c, pipe.c, icmp.c; the
 * kernel answers ICMP itself); it returns only on an error, written to
 * the shared block for the parent to report.
 */
#include "workload/workload-priv.h"

#include <unistd.h>

void workload_responder_main(struct workload *w)
{
	w->t->ops->respond(w->t, w->sh->error[ROLE_RESPONDER], CHILD_ERROR_LEN);
	_exit(1);
}
