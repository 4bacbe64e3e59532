/* plag_list.c - the similar pairs of a game, measured again, and their
 * JSON (plag_list.h). */
#include "judge/plag/plag_list.h"

#include <stdio.h>
#include <stdlib.h>

#include "judge/base/safe_text.h"
#include "judge/plag/plag_store.h"

const char *plag_list_ref(const struct plag_list_side *s, char buf[96])
{
	if (s->submission)
		snprintf(buf, 96, "%lld", (long long)s->submission);
	else
		snprintf(buf, 96, "doc:%lld (%.60s)", (long long)s->doc, s->label);
	return buf;
}

void plag_list_side_read(const struct store_plag_doc *d, struct plag_list_side *s)
{
	*s = (struct plag_list_side){ .doc = d->id, .submission = d->submission };
	snprintf(s->author, sizeof s->author, "%s", d->author);
	snprintf(s->name, sizeof s->name, "%s", d->name);
	snprintf(s->label, sizeof s->label, "%s", d->label);
}

/* The pair's numbers as plag_store_pair() measures it now. */
static int measure(struct store *store, const struct cfg_plag *cfg, struct plag_list_pair *r,
		   err_t err)
{
	struct plag_match m;
	if (plag_store_pair(store, cfg, r->a.doc, r->b.doc, &m, NULL, err) < 0)
		return -1;
	r->similarity = m.similarity;
	r->a_in_b = m.pair.a_in_b;
	r->b_in_a = m.pair.b_in_a;
	r->longest = (int)plag_longest_tokens(&m.pair);
	r->flagged = m.flagged;
	r->fragment = m.fragment;
	r->a.first_line = (int)m.pair.longest_a.first_line;
	r->a.last_line = (int)m.pair.longest_a.last_line;
	r->b.first_line = (int)m.pair.longest_b.first_line;
	r->b.last_line = (int)m.pair.longest_b.last_line;
	return 0;
}

static int by_similarity(const void *x, const void *y)
{
	const struct plag_list_pair *a = x, *b = y;
	if (a->similarity != b->similarity)
		return a->similarity < b->similarity ? 1 : -1;
	if (a->a.doc != b->a.doc)
		return a->a.doc < b->a.doc ? -1 : 1;
	return (a->b.doc > b->b.doc) - (a->b.doc < b->b.doc);
}

struct reading {
	struct store *s;
	const struct cfg_plag *cfg;
	struct plag_list *out;
};

/* One stored pair, measured again and kept when the list asks for it. */
static int pair_read(void *ctx, const struct store_plag_doc *a, const struct store_plag_doc *b)
{
	struct reading *p = ctx;
	struct plag_list *l = p->out;
	struct plag_list_pair r = { 0 };
	err_t err;
	plag_list_side_read(a, &r.a);
	plag_list_side_read(b, &r.b);
	if (measure(p->s, p->cfg, &r, err) < 0) {
		if (!l->unmeasured++) /* the first says why */
			err_set(l->unmeasured_why, "%s", err->msg);
		return 0;
	}
	if (r.similarity < l->min - 1e-9 && !(l->flagged_too && r.flagged))
		return 0;
	struct plag_list_pair *v = realloc(l->v, (l->n + 1) * sizeof *v);
	if (!v)
		return -1;
	l->v = v;
	l->v[l->n++] = r;
	return 0;
}

int plag_list_load(struct store *s, const struct cfg_plag *cfg, const char *game, double min,
		   struct plag_list *out, err_t err)
{
	*out = (struct plag_list){ .game = game, .min = min < 0 ? cfg->flag_pct / 100.0 : min,
				   .flagged_too = min < 0, .generated_ms = store_now_ms() };
	struct reading p = { s, cfg, out };
	err->msg[0] = '\0';
	int rc = store_plag_pairs(s, game, pair_read, &p, err);
	if (rc < 0) {
		if (!err->msg[0]) /* pair_read stopped */
			err_set(err, "reading the pairs: out of memory");
		plag_list_free(out);
		return -1;
	}
	if (out->n > 1)
		qsort(out->v, out->n, sizeof *out->v, by_similarity);
	return 0;
}

void plag_list_free(struct plag_list *l)
{
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

static json_t *side_json(const struct plag_list_side *s)
{
	json_t *j = json_pack("{s:I, s:o, s:o, s:[i, i]}", "doc", (json_int_t)s->doc,
			      "author", safe_json_text(s->author), "player",
			      safe_json_text(s->name), "lines", s->first_line, s->last_line);
	if (s->submission)
		json_object_set_new(j, "submission", json_integer(s->submission));
	else
		json_object_set_new(j, "archive", safe_json_text(s->label));
	return j;
}

json_t *plag_list_pairs_json(const struct plag_list *l)
{
	json_t *arr = json_array();
	for (size_t i = 0; i < l->n; i++) {
		const struct plag_list_pair *r = &l->v[i];
		json_array_append_new(arr, json_pack("{s:f, s:f, s:f, s:i, s:b, s:b, s:o, s:o}",
			"similarity", r->similarity, "a_in_b", r->a_in_b, "b_in_a", r->b_in_a,
			"longest_tokens", r->longest, "flagged", r->flagged, "fragment", r->fragment,
			"a", side_json(&r->a), "b", side_json(&r->b)));
	}
	return arr;
}

json_t *plag_list_json(const struct plag_list *l)
{
	return json_pack("{s:o, s:f, s:b, s:I, s:o}", "game", safe_json_text(l->game), "min",
			 l->min, "flagged_too", l->flagged_too, "generated_at",
			 (json_int_t)l->generated_ms, "pairs", plag_list_pairs_json(l));
}
