/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_CONTROL_AUTH_H
#define PERPKT_CONTROL_AUTH_H

#include <stddef.h>
#include <stdint.h>

/*
 * How `perpkt serve` and `record --peer` know each other: a key of 32
 * random bytes that both hold in a file (64 hex digits, mode 0600, owned
 * by the user who reads it), never sent. Each side sends a fresh nonce
 * in the clear; every message after that carries " mac=HEX", libsodium's
 * crypto_auth (HMAC-SHA-512-256) under the key of
 *
 *   "perpkt-serve 2 SENDER SEQ CLIENT-NONCE SERVE-NONCE\n" LINE
 *
 * SENDER "client" or "serve", SEQ the sender's count of messages from
 * 0, so that no message can be forged, replayed or moved to another
 * connection. The profile document is bound by its BLAKE2b-256 digest
 * in the sealed line before it ("ok bytes=N sum=HEX"). The channel is
 * authenticated, not encrypted: what it carries (kernel addresses in the
 * profile) can be read on the wire by whoever can read that link.
 */

#define CONTROL_KEY_BYTES 32
#define CONTROL_NONCE_HEX 64  /* 32 random bytes */
#define CONTROL_KEY_ID_HEX 16 /* the key's name: 8 bytes of its digest */

enum { CONTROL_CLIENT, CONTROL_SERVE };

struct control_auth {
	unsigned char key[CONTROL_KEY_BYTES];
	char id[CONTROL_KEY_ID_HEX + 1];
	char nonce[2][CONTROL_NONCE_HEX + 1];  /* by CONTROL_CLIENT, _SERVE */
	uint64_t seq[2];                       /* messages each side sent */
	int side;                              /* which one this is */
};

/* The default key file: $XDG_CONFIG_HOME/perpkt/serve.key, or
 * ~/.config/perpkt/serve.key. -1 when there is no home to put it in. */
int control_key_default(char *buf, size_t len);
/* Read the key at path into a: a regular file of this user's (root:
 * anyone's) that no one else may read or write, not all zeros. -1 with
 * the reason in err. */
int control_key_load(struct control_auth *a, const char *path, char *err,
		     size_t errlen);
/* serve: the same, but only a file of this user's, root's too (one
 * another user owns, that user could rewrite), or make the file (and its directory, mode 0700)
 * with a new key when there is none; *made says which. */
int control_key_load_or_make(struct control_auth *a, const char *path,
			     int *made, char *err, size_t errlen);
/* This side's nonce into a->nonce[a->side]. */
void control_auth_nonce(struct control_auth *a);

/* Send line with its mac as this side's next message; -1 on failure. */
int control_send(int fd, struct control_auth *a, const char *line);
/* Read the other side's next message into buf (mac checked and cut
 * off); -1 with the reason in err. An "error ..." line without a mac,
 * which a side that cannot authenticate sends, is returned as it is
 * with *unsealed set (when unsealed is not NULL), so its reason can be
 * shown; it counts as no message. */
int control_recv(int fd, struct control_auth *a, char *buf, size_t len,
		 int timeout_ms, int *unsealed, char *err, size_t errlen);
/* Check and cut off the mac of `line`, the other side's next message. */
int control_open(struct control_auth *a, char *line);
/* The digest a profile document is sent with, 64 hex digits. */
void control_digest(const void *data, size_t len, char out[65]);

#endif
