#include "games/seed.h"

#include <openssl/sha.h>
#include <string.h>
#include <sys/random.h>

static void put_le(uint8_t *out, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		out[i] = (uint8_t)(v >> (8 * i));
}

uint64_t seed_derive(uint64_t match_seed, const char *purpose, unsigned seat)
{
	uint8_t msg[12 + 32], digest[SHA256_DIGEST_LENGTH];
	size_t plen = strnlen(purpose, sizeof msg - 12);
	put_le(msg, match_seed, 8);
	put_le(msg + 8, seat, 4);
	memcpy(msg + 12, purpose, plen);
	SHA256(msg, 12 + plen, digest);
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | digest[i];
	return v;
}

uint64_t seed_fresh(void)
{
	uint64_t v = 0;
	uint8_t *at = (uint8_t *)&v;
	size_t got = 0;
	while (got < sizeof v) {
		ssize_t n = getrandom(at + got, sizeof v - got, 0);
		if (n > 0)
			got += (size_t)n;
	}
	return v >> 2;
}
