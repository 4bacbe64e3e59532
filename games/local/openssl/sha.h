/* openssl/sha.h (student kit) - the one digest the engines use (the seeds
 * derived for the engine and each player, games/seed.h), so that the local
 * runner needs no OpenSSL: SHA-256, as FIPS 180-4 defines it. */
#ifndef KIT_LOCAL_SHA_H
#define KIT_LOCAL_SHA_H

#include <stddef.h>

#define SHA256_DIGEST_LENGTH 32

unsigned char *SHA256(const unsigned char *data, size_t len, unsigned char *digest);

#endif
