#pragma once
#include <stddef.h>

/* SHA-256 of `count` bytes at `bytes` into `digest` (32 bytes), by the system's libcrypto
 * (OpenSSL 3), which is loaded on the first call rather than at every process start: linked
 * in, its loading and relocation cost every command about 2.5 M instructions and 120 page
 * faults, and only photo proofs hash. Returns 0, or -1 when libcrypto cannot be loaded or
 * fails, with the reason in `message` (at most `message_size` bytes, NUL-terminated). */
int mpcrypto_sha256(const void *bytes, size_t count, unsigned char digest[32], char *message,
                    size_t message_size);
