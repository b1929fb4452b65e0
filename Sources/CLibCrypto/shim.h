#pragma once
// The low-level SHA-256 functions: unlike EVP_Digest they need no provider set-up, which costs
// OpenSSL 3 about 6 million instructions on its first use in a process (a third of a photo check).
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>

/// SHA-256 of `length` bytes at `data` into the 32 bytes at `digest`; returns 1 on success.
static inline int mp_sha256(const void *data, size_t length, unsigned char *digest) {
    SHA256_CTX context;
    if (SHA256_Init(&context) != 1) return 0;
    if (length > 0 && SHA256_Update(&context, data, length) != 1) return 0;
    return SHA256_Final(digest, &context);
}
