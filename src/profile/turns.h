/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_PROFILE_TURNS_H
#define PERPKT_PROFILE_TURNS_H

#include "profile/profile.h"

/*
 * A setting compared by turns (record --turn-on CMD --turn-off CMD):
 * one ping-pong whose windows alternate, even windows with the setting
 * off, odd ones with it on. The profile holds them all; each side is
 * taken from it as a profile of its own, which diff compares.
 */

/* The condition that marks such a profile: "off: CMD; on: CMD". */
#define PROFILE_COND_TURNS "workload.turns"

/* 1 when p's windows alternate a setting off and on. */
int profile_has_turns(const struct profile *p);
/* "off" or "on": the side's name; -1 after printing why not. */
int profile_turn_parse(const char *s, int *on);
/*
 * Replace p by one side of its turns (on: the odd windows): its
 * samples and windows, totals, latency and tasks made from them. What
 * only the whole run holds (the latency histogram, callchains, CPU
 * times, interrupts) is left out and named in p->missing. -1 after
 * printing why (not a turns profile: path names it).
 */
int profile_take_turn(struct profile *p, int on, const char *path);

#endif
