#include "judge/plag/plag_doc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/base/paths.h"
#include "judge/compile/source.h"

/* Base files are the judge's own: a limit only guards against a mistake. */
#define BASE_MAX_BYTES (4u << 20)

static enum plag_err add_base_file(struct plag_hashset *set, const char *path, unsigned k,
				   err_t err)
{
	char *text;
	size_t len;
	if (src_read(path, BASE_MAX_BYTES, &text, &len, err) < 0)
		return PLAG_E_PARAM;
	struct plag_tokens t = { 0 };
	err_t terr;
	enum plag_err e = plag_tokenize(text, len, NULL, &t, terr);
	free(text);
	if (e == PLAG_E_EMPTY)
		return PLAG_OK;
	if (e) {
		err_set(err, "base file %.100s: %.140s", path, terr->msg);
		return e;
	}
	e = plag_hashset_add_tokens(set, t.v, t.n, k, err);
	plag_tokens_free(&t);
	return e;
}

enum plag_err plag_base_load(const char *data_dir, const char *game, unsigned k,
			     struct plag_hashset *out, err_t err)
{
	char path[PATH_MAX];
	*out = (struct plag_hashset){ 0 };
	paths_game_header(data_dir, game, path);
	enum plag_err e = add_base_file(out, path, k, err);
	paths_shared_header(data_dir, path); /* what the course games' headers share */
	if (!e)
		e = add_base_file(out, path, k, err);
	static const char *const shipped[] = { "Null", "Demo" };
	char player[PATH_MAX];
	for (size_t i = 0; !e && i < sizeof shipped / sizeof *shipped; i++)
		if (paths_shipped_player(data_dir, game, shipped[i], player)) /* a game need not ship both */
			e = add_base_file(out, player, k, err);
	if (e)
		plag_hashset_free(out);
	return e;
}

enum plag_err plag_fingerprint(const struct cfg_plag *cfg, const struct plag_hashset *base,
			       const char *src, size_t len, struct plag_fps *out,
			       err_t err)
{
	static const struct plag_hashset no_base = { 0 }; /* all of it the file's own */
	struct plag_tokens t = { 0 };
	*out = (struct plag_fps){ 0 };
	enum plag_err e = plag_tokenize(src, len, NULL, &t, err);
	if (!e)
		e = plag_winnow_own(t.v, t.n, cfg->k, cfg->w, base ? base : &no_base, out, err);
	plag_tokens_free(&t);
	if (!e)
		plag_fps_exclude(out, base);
	return e;
}

static void put_le(uint8_t *p, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *p, unsigned bytes)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < bytes; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

uint8_t *plag_fps_encode(const struct plag_fps *f, size_t *len)
{
	*len = f->n * PLAG_FP_BYTES;
	uint8_t *b = malloc(*len ? *len : 1);
	for (size_t i = 0; b && i < f->n; i++) {
		uint8_t *p = b + i * PLAG_FP_BYTES;
		put_le(p, f->v[i].hash, 8);
		put_le(p + 8, f->v[i].tok, 4);
		put_le(p + 12, f->v[i].first_line, 4);
		put_le(p + 16, f->v[i].last_line, 4);
	}
	return b;
}

enum plag_err plag_fps_decode(const void *blob, size_t len, unsigned k, unsigned w,
			      uint32_t ntokens, struct plag_fps *out, err_t err)
{
	*out = (struct plag_fps){ .k = k, .w = w, .ntokens = ntokens, .own = PLAG_OWN_UNKNOWN };
	if (len % PLAG_FP_BYTES || k < 1 || k > PLAG_K_MAX) {
		err_set(err, "stored fingerprints are damaged (%zu bytes, k %u)",
			 len, k);
		return PLAG_E_PARAM;
	}
	size_t n = len / PLAG_FP_BYTES;
	out->v = malloc((n ? n : 1) * sizeof *out->v);
	if (!out->v) {
		err_set(err, "out of memory");
		return PLAG_E_NOMEM;
	}
	const uint8_t *b = blob;
	for (size_t i = 0; i < n; i++, b += PLAG_FP_BYTES) {
		struct plag_fp fp = {
			.hash = get_le(b, 8), .tok = (uint32_t)get_le(b + 8, 4),
			.first_line = (uint32_t)get_le(b + 12, 4),
			.last_line = (uint32_t)get_le(b + 16, 4),
		};
		bool ordered = i == 0 || fp.tok > out->v[i - 1].tok;
		if (!ordered || (uint64_t)fp.tok + k > ntokens || fp.first_line > fp.last_line) {
			plag_fps_free(out);
			err_set(err, "stored fingerprint %zu is damaged", i);
			return PLAG_E_PARAM;
		}
		out->v[out->n++] = fp;
	}
	return PLAG_OK;
}
