/* plag_doc.h - one file's fingerprints as the judge keeps them.
 *
 * Promises: plag_fingerprint() turns a source into the fingerprints that
 * are stored and compared: tokens (plag_tokens.h), winnowed with the
 * configured k and w, minus the game's base code - every k-gram of the
 * game's header and of its shipped Null and Demo players, which every
 * contestant may start from; the tokens in none of those k-grams are the
 * file's own code (plag_fps.own).  plag_fps_encode()/plag_fps_decode() give
 * them a fixed little-endian layout for the store; decoding checks the
 * layout, so a damaged row is an error, not a wild read.
 */
#ifndef JUDGE_PLAG_DOC_H
#define JUDGE_PLAG_DOC_H

#include "judge/base/config.h"
#include "judge/plag/plag_winnow.h"

#define PLAG_FP_BYTES 20 /* hash 8, token 4, first line 4, last line 4 */

/* The base code of game (games/G/kit/G.h, games/kit/course.h which the
 * course games' headers include, games/G/players/AINull.c and
 * AIDemo.c under data_dir, those that exist) as a hash set of all its
 * k-grams. */
enum plag_err plag_base_load(const char *data_dir, const char *game, unsigned k,
			     struct plag_hashset *out, err_t err);

/* Fingerprints of src[0..len) with cfg's k and w, base (may be NULL)
 * removed.  The error text says what is wrong with the file. */
enum plag_err plag_fingerprint(const struct cfg_plag *cfg, const struct plag_hashset *base,
			       const char *src, size_t len, struct plag_fps *out,
			       err_t err);

/* f as n * PLAG_FP_BYTES bytes (malloc'd; NULL when out of memory). */
uint8_t *plag_fps_encode(const struct plag_fps *f, size_t *len);

/* Rebuilds fingerprints of k-grams of length k from their encoding. */
enum plag_err plag_fps_decode(const void *blob, size_t len, unsigned k, unsigned w,
			      uint32_t ntokens, struct plag_fps *out, err_t err);

#endif
