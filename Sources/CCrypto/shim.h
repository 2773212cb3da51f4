#ifndef MOTIONBRIDGE_CCRYPTO_SHIM_H
#define MOTIONBRIDGE_CCRYPTO_SHIM_H
/* OpenSSL's libcrypto, for motionctl provision (random bytes and the PBKDF2 hash of mosquitto's
   password file) and the agent (SHA-256 of its configuration report). */
#include <openssl/evp.h>
#include <openssl/rand.h>
#endif
