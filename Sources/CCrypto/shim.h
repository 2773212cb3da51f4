#ifndef MOTIONBRIDGE_CCRYPTO_SHIM_H
#define MOTIONBRIDGE_CCRYPTO_SHIM_H
/* OpenSSL's libcrypto, for motionctl provision (random bytes and the PBKDF2 hash of mosquitto's
   password file) and the agent (SHA-256 of its configuration report). */
/* The SHA256_Init/Update/Final interface is deprecated since OpenSSL 3.0 (still in 3.5, Debian 13) in
   favour of EVP, used here for the agent's hash on purpose: the first EVP digest loads the default
   provider, which makes about 2 MB of libcrypto resident for the life of the process (a process with
   libmosquitto: 1.4 MB of libcrypto resident; 3.4 MB after one EVP_Digest; 1.6 MB after SHA256_Final).
   The one-shot SHA256() goes through EVP in OpenSSL 3. */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

/* SHA-256 of `count` bytes at `data` into `digest` (32 bytes), without loading a provider.
   Returns 1 on success, 0 on failure. */
static inline int ccrypto_sha256(const void *data, size_t count, unsigned char *digest) {
    SHA256_CTX context;
    return SHA256_Init(&context) == 1 && SHA256_Update(&context, data, count) == 1 && SHA256_Final(digest, &context) == 1;
}
#endif
