#include "judge/plag/plag_tokens.h"

#include "judge/plag/plag_raw.h"
#include "judge/plag/plag_norm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Argument expansion recurses in C once per level: keep it far from the
 * C stack's end, sanitizers included. */
#define MAX_DEPTH_CAP 1024

void plag_tok_limits_default(struct plag_tok_limits *lim)
{
	*lim = (struct plag_tok_limits){
		.max_bytes = PLAG_MAX_BYTES_DEFAULT,
		.max_depth = 128,
		.max_tokens = (size_t)1 << 21,
		.max_expansion = (size_t)1 << 22,
	};
}

/* Token indices and lines are 32-bit downstream, hence the caps. */
static enum plag_err check_limits(const struct plag_tok_limits *lim, err_t err)
{
	if (lim->max_bytes == 0 || lim->max_bytes > PLAG_MAX_BYTES_CAP ||
	    lim->max_depth == 0 || lim->max_depth > MAX_DEPTH_CAP ||
	    lim->max_tokens == 0 || lim->max_tokens > UINT32_MAX - 1 ||
	    lim->max_expansion > UINT32_MAX) {
		err_set(err, 
			 "tokenizer limits out of range (bytes 1..%d, depth 1..%d, tokens 1..2^32-2, "
			 "expansion 0..2^32-1)", PLAG_MAX_BYTES_CAP, MAX_DEPTH_CAP);
		return PLAG_E_PARAM;
	}
	return PLAG_OK;
}

/* C text has no control bytes but layout; a NUL means binary data. */
static enum plag_err check_text(const char *src, size_t len, err_t err)
{
	unsigned line = 1;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)src[i];
		if (c == '\n')
			line++;
		if ((c < 0x20 && c != '\t' && c != '\n' && c != '\v' && c != '\f' && c != '\r') ||
		    c == 0x7f) {
			err_set(err, "not C text: byte 0x%02x at offset %zu (line %u)",
				 c, i, line);
			return PLAG_E_BINARY;
		}
	}
	return PLAG_OK;
}

static enum plag_err check_input(const char *src, size_t len, const struct plag_tok_limits *lim,
				 err_t err)
{
	if (len == 0) {
		err_set(err, "empty source");
		return PLAG_E_EMPTY;
	}
	if (len > lim->max_bytes) {
		err_set(err, "source is %zu bytes, over the limit of %zu", len,
			 lim->max_bytes);
		return PLAG_E_TOO_BIG;
	}
	return check_text(src, len, err);
}

/* Adjacent string literals are one literal to C (and splitting a format
 * string is a free change for a copier). */
static enum plag_err normalise(const struct plag_raw *r, size_t n, struct plag_tokens *out,
			       err_t err)
{
	out->v = malloc((n ? n : 1) * sizeof *out->v);
	if (!out->v)
		return PLAG_E_NOMEM;
	out->n = 0;
	for (size_t i = 0; i < n; i++) {
		if (r[i].kind == PLAG_RAW_STRING && i > 0 && r[i - 1].kind == PLAG_RAW_STRING)
			continue;
		out->v[out->n++] = (struct plag_token){ .code = plag_raw_code(&r[i]), .line = r[i].line };
	}
	if (out->n == 0) {
		err_set(err, "no C tokens (only comments, layout or directives)");
		plag_tokens_free(out);
		return PLAG_E_EMPTY;
	}
	return PLAG_OK;
}

enum plag_err plag_tokenize(const char *src, size_t len, const struct plag_tok_limits *lim,
			    struct plag_tokens *out, err_t err)
{
	err_t ignored;
	struct plag_tok_limits def;
	if (!err)
		err = ignored;
	if (!out || (!src && len)) {
		err_set(err, "plag_tokenize: no source or no output");
		return PLAG_E_PARAM;
	}
	*out = (struct plag_tokens){ 0 };
	if (!lim) {
		plag_tok_limits_default(&def);
		lim = &def;
	}
	enum plag_err e = check_limits(lim, err);
	if (!e)
		e = check_input(src, len, lim, err);
	if (e)
		return e;
	/* A UTF-8 byte order mark is no token. */
	if (len >= 3 && memcmp(src, "\xef\xbb\xbf", 3) == 0)
		src += 3, len -= 3;

	struct plag_atoms atoms;
	struct plag_raw *raw = NULL, *pre = NULL, *canon = NULL;
	size_t nraw = 0, npre = 0, ncanon = 0;
	/* Pasting may add as much spelling as the source itself holds, twice. */
	e = plag_atoms_init(&atoms, 2 * lim->max_bytes + 65536);
	if (!e)
		e = plag_raw_tokens(src, len, &atoms, &raw, &nraw, err);
	if (!e)
		e = plag_preprocess(raw, nraw, &atoms, lim, &pre, &npre, err);
	if (!e)
		e = plag_norm(pre, npre, &atoms, &canon, &ncanon);
	if (!e && ncanon > lim->max_tokens) {
		err_set(err, "over %zu tokens once loops and blocks are written "
			 "out in one form", lim->max_tokens);
		e = PLAG_E_TOO_MANY;
	}
	if (!e)
		e = normalise(canon, ncanon, out, err);
	if (e == PLAG_E_NOMEM)
		err_set(err, "out of memory");
	free(raw);
	free(pre);
	free(canon);
	plag_atoms_free(&atoms);
	return e;
}

void plag_tokens_free(struct plag_tokens *t)
{
	if (!t)
		return;
	free(t->v);
	t->v = NULL;
	t->n = 0;
}

const char *plag_tok_name(uint32_t code)
{
	const char *s = NULL;
	switch (code) {
	case PLAG_TOK_IDENT:
		return "ID";
	case PLAG_TOK_NUMBER:
		return "NUM";
	case PLAG_TOK_STRING:
		return "STR";
	case PLAG_TOK_OTHER:
		return "OTHER";
	}
	if (code >= PLAG_TOK_KEYWORD && code < PLAG_TOK_PUNCT)
		s = plag_keyword_spelling(code - PLAG_TOK_KEYWORD);
	else if (code >= PLAG_TOK_PUNCT)
		s = clex_punct_spelling(code - PLAG_TOK_PUNCT);
	return s ? s : "<invalid>";
}

const char *plag_strerror(enum plag_err e)
{
	switch (e) {
	case PLAG_OK:
		return "ok";
	case PLAG_E_EMPTY:
		return "empty";
	case PLAG_E_BINARY:
		return "not text";
	case PLAG_E_TOO_BIG:
		return "too big";
	case PLAG_E_SYNTAX:
		return "syntax";
	case PLAG_E_MACRO_DEPTH:
		return "macro depth";
	case PLAG_E_TOO_MANY:
		return "too many tokens";
	case PLAG_E_PARAM:
		return "bad parameter";
	case PLAG_E_NOMEM:
		return "out of memory";
	}
	return "unknown error";
}
