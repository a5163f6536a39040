/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_LAB_CHANNEL_H
#define PERPKT_LAB_CHANNEL_H

/*
 * The guest's files, as its /init writes them to the data port (a
 * serial port, because Debian's cloud kernels have the 8250 and PL011
 * drivers built in but virtio and 9p only as modules):
 *
 *     perpkt-file NAME
 *     <base64 lines>
 *     perpkt-end
 *     ...
 *     perpkt-done
 *
 * Decoded into folder `dir` as dir/NAME. Returns the number of files,
 * 0 when the stream never reached perpkt-done (the guest died first)
 * or is not there (QEMU ended before making it), -1 after printing why.
 */
int lab_channel_unpack(const char *stream, const char *dir);

/* Decode base64 text (whitespace ignored) into out, which holds at
 * least 3 * strlen(in) / 4 bytes. Returns the length, -1 if malformed. */
long lab_base64_decode(const char *in, unsigned char *out);

/* A gzip'd file the guest sent (gzip -c) into `out`, through zlib; -1
 * after printing why. */
int lab_gunzip(const char *gz, const char *out);

#endif
