/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_LAB_NIC_H
#define PERPKT_LAB_NIC_H

#include "lab/lab.h"

/* record --kernel --net nic (lab-nic.c): lab_record for two guests,
 * a client and serve, joined by a virtual NIC. */
int lab_record_nic(const struct lab_request *rq, const struct lab_job *job);

#endif
