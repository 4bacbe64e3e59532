#include "judge/base/hash.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <stdint.h>
#include <string.h>

void hash_start_lean(void)
{
	OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CONFIG | OPENSSL_INIT_NO_ADD_ALL_CIPHERS |
				    OPENSSL_INIT_NO_ADD_ALL_DIGESTS,
			    NULL);
}

int hash_init(struct hash *h)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	if (!ctx)
		return -1;
	if (EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1) {
		EVP_MD_CTX_free(ctx);
		return -1;
	}
	h->ctx = ctx;
	return 0;
}

void hash_update(struct hash *h, const void *data, size_t len)
{
	/* SHA-256 updates cannot fail once initialised; a failure would show
	 * up in EVP_DigestFinal_ex, which hash_final checks. */
	if (len)
		EVP_DigestUpdate(h->ctx, data, len);
}

void hash_field(struct hash *h, const char *tag, const void *data, size_t len)
{
	unsigned char n[8];
	uint64_t v = len;
	for (int i = 0; i < 8; i++)
		n[i] = (unsigned char)(v >> (8 * i));
	hash_update(h, tag, strlen(tag) + 1);
	hash_update(h, n, sizeof n);
	hash_update(h, data, len);
}

int hash_final(struct hash *h, char hex[HASH_HEXLEN + 1])
{
	static const char digits[] = "0123456789abcdef";
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int len = 0;
	int ok = EVP_DigestFinal_ex(h->ctx, md, &len) == 1 && len == HASH_HEXLEN / 2;
	hash_abort(h);
	if (!ok)
		return -1;
	for (unsigned i = 0; i < len; i++) {
		hex[2 * i] = digits[md[i] >> 4];
		hex[2 * i + 1] = digits[md[i] & 15];
	}
	hex[HASH_HEXLEN] = '\0';
	return 0;
}

void hash_abort(struct hash *h)
{
	EVP_MD_CTX_free(h->ctx);
	h->ctx = NULL;
}

int hash_hex(const void *data, size_t len, char hex[HASH_HEXLEN + 1])
{
	struct hash h;
	if (hash_init(&h) < 0)
		return -1;
	hash_update(&h, data, len);
	return hash_final(&h, hex);
}

int hash_file(const char *path, char hex[HASH_HEXLEN + 1])
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct hash h;
	if (fd < 0)
		return -1;
	if (hash_init(&h) < 0) {
		close(fd);
		return -1;
	}
	char buf[65536];
	ssize_t n;
	while ((n = read(fd, buf, sizeof buf)) > 0)
		hash_update(&h, buf, (size_t)n);
	int saved = errno;
	close(fd);
	if (n < 0) {
		hash_abort(&h);
		errno = saved;
		return -1;
	}
	return hash_final(&h, hex);
}
