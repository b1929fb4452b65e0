#include "mpcrypto.h"

#include <dlfcn.h>
/* The low-level SHA-256 functions: unlike EVP_Digest they need no provider set-up, which costs
 * OpenSSL 3 about 6 million instructions on its first use in a process. */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>
#include <pthread.h>
#include <stdio.h>

/* The libcrypto functions used, typed by OpenSSL's own header. */
static __typeof__(&SHA256_Init) mpcrypto_init;
static __typeof__(&SHA256_Update) mpcrypto_update;
static __typeof__(&SHA256_Final) mpcrypto_final;
static char mpcrypto_load_error[256];
static pthread_once_t mpcrypto_once = PTHREAD_ONCE_INIT;

static void mpcrypto_load(void) {
    void *library = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(mpcrypto_load_error, sizeof mpcrypto_load_error, "%s", dlerror());
        return;
    }
    mpcrypto_init = (__typeof__(&SHA256_Init))dlsym(library, "SHA256_Init");
    mpcrypto_update = (__typeof__(&SHA256_Update))dlsym(library, "SHA256_Update");
    mpcrypto_final = (__typeof__(&SHA256_Final))dlsym(library, "SHA256_Final");
    if (mpcrypto_init == NULL || mpcrypto_update == NULL || mpcrypto_final == NULL) {
        snprintf(mpcrypto_load_error, sizeof mpcrypto_load_error, "libcrypto.so.3 lacks SHA256_Init/Update/Final");
        mpcrypto_init = NULL;
    }
}

int mpcrypto_sha256(const void *bytes, size_t count, unsigned char digest[32], char *message,
                    size_t message_size) {
    pthread_once(&mpcrypto_once, mpcrypto_load);
    if (mpcrypto_init == NULL) {
        snprintf(message, message_size, "cannot load libcrypto: %s", mpcrypto_load_error);
        return -1;
    }
    SHA256_CTX context;
    /* Zero bytes are not passed on: a null pointer is fine then, nothing is read. */
    if (mpcrypto_init(&context) != 1 || (count > 0 && mpcrypto_update(&context, bytes, count) != 1)
        || mpcrypto_final(digest, &context) != 1) {
        snprintf(message, message_size, "libcrypto could not compute a SHA-256 digest");
        return -1;
    }
    return 0;
}
