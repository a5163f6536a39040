// SPDX-License-Identifier: GPL-2.0-only
#include "lab/content-hash.h"

#include <errno.h>
#include <fcntl.h>
#include <sodium.h>
#include <string.h>
#include <unistd.h>

#include "error.h"

int lab_content_hash(const char *path, size_t bytes, char *hex, size_t len)
{
	crypto_generichash_state st;
	unsigned char buf[1 << 16], hash[crypto_generichash_BYTES_MAX];
	ssize_t n;
	int fd;

	if (bytes > sizeof(hash) || len < 2 * bytes + 1 || sodium_init() < 0)
		return error("cannot hash '%s': libsodium did not start", path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return error("cannot read '%s': %s", path, strerror(errno));
	crypto_generichash_init(&st, NULL, 0, bytes);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		crypto_generichash_update(&st, buf, (size_t)n);
	close(fd);
	if (n < 0)
		return error("cannot read '%s': %s", path, strerror(errno));
	crypto_generichash_final(&st, hash, bytes);
	sodium_bin2hex(hex, len, hash, bytes);
	return 0;
}
