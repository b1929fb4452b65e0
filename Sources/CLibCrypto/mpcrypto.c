#include "mpcrypto.h"

#include <dlfcn.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <stdio.h>

/* The two libcrypto functions used, typed by OpenSSL's own header. */
static __typeof__(&EVP_Digest) mpcrypto_digest;
static __typeof__(&EVP_sha256) mpcrypto_sha256_type;
static char mpcrypto_load_error[256];
static pthread_once_t mpcrypto_once = PTHREAD_ONCE_INIT;

static void mpcrypto_load(void) {
    void *library = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(mpcrypto_load_error, sizeof mpcrypto_load_error, "%s", dlerror());
        return;
    }
    mpcrypto_digest = (__typeof__(&EVP_Digest))dlsym(library, "EVP_Digest");
    mpcrypto_sha256_type = (__typeof__(&EVP_sha256))dlsym(library, "EVP_sha256");
    if (mpcrypto_digest == NULL || mpcrypto_sha256_type == NULL) {
        snprintf(mpcrypto_load_error, sizeof mpcrypto_load_error, "libcrypto.so.3 lacks EVP_Digest or EVP_sha256");
        mpcrypto_digest = NULL;
    }
}

int mpcrypto_sha256(const void *bytes, size_t count, unsigned char digest[32], char *message,
                    size_t message_size) {
    pthread_once(&mpcrypto_once, mpcrypto_load);
    if (mpcrypto_digest == NULL) {
        snprintf(message, message_size, "cannot load libcrypto: %s", mpcrypto_load_error);
        return -1;
    }
    unsigned int length = 0;
    /* A null pointer is fine for zero bytes; libcrypto reads nothing. */
    if (mpcrypto_digest(bytes, count, digest, &length, mpcrypto_sha256_type(), NULL) != 1 || length != 32) {
        snprintf(message, message_size, "libcrypto could not compute a SHA-256 digest");
        return -1;
    }
    return 0;
}
