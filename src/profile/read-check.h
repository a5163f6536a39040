/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_PROFILE_READ_CHECK_H
#define PERPKT_PROFILE_READ_CHECK_H

#include "profile/profile.h"
#include "profile/read-fields.h"

/*
 * What the reader checks once every field has been read: that the
 * fields agree with each other as record writes them. Units and event
 * names are words of their vocabulary; the latency histogram holds the
 * round trips timed, and the percentiles are the histogram's (so none
 * is shown without one); the samples listed add up to no more than
 * each event says it took, and are there when it took any, and the
 * stacks hold and weigh no more than the samples; a version 2 profile
 * counts every event and lists its windows, which add up to the
 * totals. The first disagreement goes to reader_inconsistent(), naming
 * the field; `side` prefixes the names ("remote." for the responder's
 * side).
 */
void profile_check(struct reader *r, const struct profile *p, const char *side);

#endif
