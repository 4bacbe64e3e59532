/* work_match.c - a match job: resolve the seats to binaries, play in the
 * sandbox, then record the result, its players and their stderr logs, its
 * replay, the rating updates (ranked), the qualification (qualifying) or
 * the tournament's next step, and the job's end in one transaction; a
 * challenge's or a comparison's is recorded and nothing more (it never
 * changes a rating).  matches.job_id is unique, so a result counts once. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "games/game.h"
#include "judge/base/file_write.h"
#include "judge/base/paths.h"
#include "judge/base/hash.h"
#include "judge/event/run.h"
#include "judge/play/match.h"
#include "judge/play/players.h"
#include "judge/rating/ladder.h"
#include "judge/rating/rating.h"
#include "judge/store/store_reference.h"
#include "judge/replay/replay_io.h"
#include "judge/worker/work.h"

struct seat_src {
	int64_t submission; /* 0: a shipped player */
	char name[16];
	char binary[PATH_MAX];
	char binary_sha[HASH_HEXLEN + 1];
	char source_sha[HASH_HEXLEN + 1];
};

struct played {
	const char *kind, *game;
	int64_t seed;
	int n;
	struct seat_src seat[GAME_MAX_PLAYERS];
	struct match_result result;
	char compiler[128];
	int64_t wall_ms; /* how long the match took to play, for forecasts */
};

/* ---- the seats ----------------------------------------------------------- */

static bool same_file(const struct work_checked *c, const struct stat *st)
{
	return c->dev == st->st_dev && c->ino == st->st_ino && c->size == st->st_size &&
	       c->mtime.tv_sec == st->st_mtim.tv_sec && c->mtime.tv_nsec == st->st_mtim.tv_nsec &&
	       c->ctime.tv_sec == st->st_ctim.tv_sec && c->ctime.tv_nsec == st->st_ctim.tv_nsec;
}

/* Does the file at path hold the bytes of hash sha?  Read and hashed the
 * first time; after that, while stat() shows the very file this worker
 * checked (a rewrite makes a new inode, an edit moves its times), taken as
 * checked: hashing four 750 KB binaries is a tenth of a ranked match. */
static bool cached_binary_ok(struct work *w, const char *path, const char *sha)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return false;
	for (int i = 0; i < w->nchecked && i < WORK_CHECKED_MAX; i++)
		if (strcmp(w->checked[i].sha, sha) == 0 && same_file(&w->checked[i], &st))
			return true;
	char have[HASH_HEXLEN + 1];
	if (hash_file(path, have) != 0 || strcmp(have, sha) != 0)
		return false;
	struct work_checked *c = &w->checked[w->nchecked++ % WORK_CHECKED_MAX];
	*c = (struct work_checked){ .dev = st.st_dev, .ino = st.st_ino, .size = st.st_size,
				    .mtime = st.st_mtim, .ctime = st.st_ctim };
	snprintf(c->sha, sizeof c->sha, "%s", sha);
	return true;
}

/* The binary of hash sha on this machine: cache_dir/store/SHA, fetched
 * from the store (and its bytes checked) unless a copy with that hash is
 * there already.  So a worker with an empty cache plays exactly the bytes
 * another machine's compile job built, and compiles nothing. */
static int local_binary(struct work *w, const char *sha, char path[PATH_MAX],
			err_t err)
{
	const char *cache = w->o->cfg->compile.cache_dir;
	char dir[PATH_MAX], have[HASH_HEXLEN + 1];
	err_t serr;
	snprintf(dir, sizeof dir, "%.4000s/store", cache);
	snprintf(path, PATH_MAX, "%.3800s/%s", dir, sha);
	if (cached_binary_ok(w, path, sha))
		return 0;
	if ((mkdir(cache, 0755) < 0 && errno != EEXIST) || (mkdir(dir, 0755) < 0 && errno != EEXIST)) {
		err_set(err, "cannot make the binary cache %.200s: %s", dir,
			 strerror(errno));
		return -1;
	}
	uint8_t *bytes;
	size_t len;
	int found = store_get_binary(w->store, sha, &bytes, &len, serr);
	if (found <= 0) {
		err_set(err, "binary %.16s... is not in the store%s%.180s", sha,
			 found < 0 ? ": " : "", found < 0 ? serr->msg : "");
		return -1;
	}
	/* stored gzip-compressed (work_compile.c), or plain by an older judge */
	char *plain;
	err_t rerr;
	int rc = replay_text(bytes, len, &plain, &len, rerr);
	free(bytes);
	if (rc < 0) {
		err_set(err, "the store's binary %.16s... cannot be read: %.200s", sha,
			 rerr->msg);
		return -1;
	}
	bytes = (uint8_t *)plain;
	rc = hash_hex(bytes, len, have);
	if (rc == 0 && strcmp(have, sha) != 0) {
		err_set(err, "the store's binary %.16s... has other bytes (hash "
			 "%.16s...): refusing to play it", sha, have);
		rc = -1;
	} else if (rc == 0 && file_write_whole(path, (const char *)bytes, len, 0755, err) < 0) {
		rc = -1;
	}
	free(bytes);
	return rc;
}

static int submission_seat(struct work *w, int64_t id, struct seat_src *s, err_t err)
{
	struct store_submission sub;
	err_t serr;
	int found = store_get_submission(w->store, id, &sub, serr);
	if (found <= 0 || !sub.binary_path[0]) {
		err_set(err, "submission %lld has no binary%s%.200s", (long long)id,
			 found < 0 ? ": " : "", found < 0 ? serr->msg : "");
		return -1;
	}
	s->submission = id;
	snprintf(s->name, sizeof s->name, "%s", sub.name);
	snprintf(s->source_sha, sizeof s->source_sha, "%s", sub.source_sha256);
	if (!sub.binary_sha256[0]) { /* compiled before binaries were stored */
		snprintf(s->binary, sizeof s->binary, "%s", sub.binary_path);
		return hash_file(s->binary, s->binary_sha) < 0 ? -1 : 0;
	}
	snprintf(s->binary_sha, sizeof s->binary_sha, "%s", sub.binary_sha256);
	return local_binary(w, sub.binary_sha256, s->binary, err);
}

/* The organiser's reference player `name` of game: its stored binary. */
static int reference_seat(struct work *w, const char *game, const char *name,
			  struct seat_src *s, err_t err)
{
	struct store_reference r;
	err_t serr;
	int found = store_reference_get(w->store, game, name, &r, serr);
	if (found <= 0) {
		err_set(err, "%s has no shipped or reference player %.64s%s%.150s",
			 game, name, found < 0 ? ": " : "", found < 0 ? serr->msg : "");
		return -1;
	}
	s->submission = 0;
	snprintf(s->name, sizeof s->name, "%s", name);
	snprintf(s->source_sha, sizeof s->source_sha, "%s", r.source_sha256);
	snprintf(s->binary_sha, sizeof s->binary_sha, "%s", r.binary_sha256);
	return local_binary(w, r.binary_sha256, s->binary, err);
}

/* A shipped player (compiled here, once) or the organiser's reference. */
static int house_seat(struct work *w, const char *game, const char *name, struct seat_src *s,
		      char compiler[128], err_t err)
{
	char source[PATH_MAX];
	err_t cerr;
	if (!paths_shipped_player(w->o->cfg->data_dir, game, name, source))
		return reference_seat(w, game, name, s, err);
	err_t uerr;
	if (players_source_name(source, s->name, uerr) < 0) {
		err_set(err, "shipped player %s: %.200s", name, uerr->msg);
		return -1;
	}
	struct cmp_result res;
	if (players_compile(w->o->cfg, game, source, &res, cerr) < 0 || !res.ok) {
		err_set(err, "shipped player %s: %.200s", name, res.ok ? cerr->msg : res.log);
		cmp_result_free(&res);
		return -1;
	}
	s->submission = 0;
	snprintf(s->binary, sizeof s->binary, "%s", res.binary);
	snprintf(s->source_sha, sizeof s->source_sha, "%s", res.source_sha256);
	snprintf(compiler, 128, "%s", res.compiler);
	cmp_result_free(&res);
	return hash_file(s->binary, s->binary_sha);
}

static int resolve_seats(struct work *w, struct played *m, err_t err)
{
	json_t *seats = json_object_get(w->payload, "seats");
	m->n = (int)json_array_size(seats);
	if (m->n < 2 || m->n > GAME_MAX_PLAYERS) {
		err_set(err, "a match job with %d seats", m->n);
		return -1;
	}
	for (int i = 0; i < m->n; i++) {
		json_t *s = json_array_get(seats, i);
		const char *house = json_string_value(json_object_get(s, "house"));
		int rc = house ? house_seat(w, m->game, house, &m->seat[i], m->compiler, err)
			       : submission_seat(w, json_integer_value(json_object_get(s, "submission")),
						 &m->seat[i], err);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* ---- playing ------------------------------------------------------------- */

static char *read_params(const char *data_dir, const char *game)
{
	char path[PATH_MAX];
	paths_game_params(data_dir, game, path);
	FILE *f = fopen(path, "re");
	if (!f)
		return NULL;
	char *buf = calloc(1, 1 << 20);
	if (buf && fread(buf, 1, (1 << 20) - 1, f) == 0) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static int play(struct work *w, struct played *m, const struct game *game, err_t err)
{
	const struct cfg_sandbox *sb = &w->o->cfg->sandbox;
	char *params = read_params(w->o->cfg->data_dir, m->game);
	struct match_spec spec = {
		.game = game, .params = params, .seed = (uint64_t)m->seed, .nplayers = m->n,
		.limits = { .cpu_ns = sb->cpu_ns, .wall_ns = sb->wall_ns,
			    .memory_bytes = sb->memory_bytes, .stderr_bytes = sb->stderr_bytes,
			    .open_files = sb->open_files },
		.uid_base = sb->uid_base, .uid_count = sb->uid_count,
		.wall_budget_factor = sb->wall_budget_factor, .wall_round_ns = sb->wall_round_ns,
		.compiler = m->compiler[0] ? m->compiler : NULL,
		.pin_cpu = w->o->pin_cpu, .cpu = w->o->cpu,
	};
	for (int i = 0; i < m->n; i++)
		spec.entry[i] = (struct match_entry){ .binary = m->seat[i].binary,
						      .name = m->seat[i].name,
						      .label = m->seat[i].name,
						      .binary_sha256 = m->seat[i].binary_sha,
						      .source_sha256 = m->seat[i].source_sha };
	int64_t t0 = store_now_ms();
	int rc = match_play(&spec, &m->result, err);
	m->wall_ms = store_now_ms() - t0;
	free(params);
	return rc;
}

/* ---- recording ----------------------------------------------------------- */

static int insert_match(struct work *w, const struct played *m, int64_t *match_id,
			err_t err)
{
	uint8_t *replay;
	size_t replay_len;
	err_t rerr;
	if (replay_pack(m->result.replay, &replay, &replay_len, rerr) < 0) {
		err_set(err, "recording the match: %.200s", rerr->msg);
		return -1;
	}
	struct store_new_match row = { .job = w->job.id, .game = m->game, .kind = m->kind,
				       .seed = m->seed, .replay = replay, .replay_len = replay_len,
				       .wall_ms = m->wall_ms > 0 ? m->wall_ms : 1, .players = m->n };
	int rc = store_add_match(w->store, &row, match_id, err);
	free(replay);
	return rc < 0 ? -1 : 0;
}

static int insert_seat(struct work *w, int64_t match_id, int i, const struct played *m,
		       err_t err)
{
	const struct match_seat *s = &m->result.seat[i];
	struct store_match_player p = {
		.seat = i, .submission = m->seat[i].submission,
		.name = m->seat[i].name, /* the stored one, as in the replay */
		.score = s->score, .rank = s->rank,
		.verdict = s->frozen ? sbx_verdict_name(s->verdict) : NULL,
		.frozen_round = s->frozen_round, .reason = s->reason,
		.cpu_ns = (int64_t)s->cpu_ns, .peak_memory = (int64_t)s->peak_memory,
	};
	return store_add_match_player(w->store, match_id, &p, err) < 0 ? -1 : 0;
}

/* Seat i's stderr, gzip-compressed, when it wrote any and the organiser
 * keeps logs (worker.keep_logs). */
static int insert_log(struct work *w, int64_t match_id, int i, const struct played *m,
		      err_t err)
{
	const struct match_seat *s = &m->result.seat[i];
	if (!w->o->cfg->worker.keep_logs || !s->log || s->log_len == 0)
		return 0;
	uint8_t *gz;
	size_t gz_len;
	err_t rerr;
	if (replay_gzip(s->log, s->log_len, &gz, &gz_len, rerr) < 0) {
		err_set(err, "recording seat %d's log: %.200s", i, rerr->msg);
		return -1;
	}
	int rc = store_add_match_log(w->store, match_id, i, gz, gz_len, err);
	free(gz);
	return rc < 0 ? -1 : 0;
}

/* A frozen seat's last input and CPU figures, or those of the step in
 * which one of its units crashed, for its author's `judge repro`: always
 * kept (bounded, judge/play/match.h), gzip-compressed. */
static int insert_fault(struct work *w, int64_t match_id, int i, const struct played *m,
			err_t err)
{
	const struct match_fault *f = m->result.seat[i].fault;
	if (!f || f->message < 0)
		return 0;
	struct store_fault row = { .message = f->message, .turn_cpu_ns = (int64_t)f->turn_cpu_ns,
				   .cpu_budget_ns = (int64_t)f->cpu_budget_ns,
				   .input_size = (int64_t)f->input_size, .unit = f->unit,
				   .unit_round = f->round, .unit_step = f->step };
	snprintf(row.unit_reason, sizeof row.unit_reason, "%s", f->reason);
	err_t rerr;
	if (replay_gzip(f->input ? (const char *)f->input : "", f->input_len, &row.input,
			&row.input_len, rerr) < 0) {
		err_set(err, "recording seat %d's last input: %.200s", i, rerr->msg);
		return -1;
	}
	int rc = store_add_match_fault(w->store, match_id, i, &row, err);
	free(row.input);
	return rc < 0 ? -1 : 0;
}

static int rate(struct work *w, int64_t match_id, const struct played *m, bool *rated,
		err_t err)
{
	struct ladder_seat seats[GAME_MAX_PLAYERS];
	for (int i = 0; i < m->n; i++)
		seats[i] = (struct ladder_seat){ .submission = m->seat[i].submission,
						 .name = m->seat[i].name,
						 .rank = m->result.seat[i].rank };
	int rc = ladder_rate(w->store, &w->o->cfg->hooks, match_id, m->game, seats, m->n, err);
	*rated = rc == 1;
	return rc < 0 ? -1 : 0;
}

/* After a qualifying match: the submission's next step, or its verdict. */
static int check_qualification(struct work *w, const struct played *m, char *note, size_t cap,
			       err_t err)
{
	int64_t id = 0;
	for (int i = 0; i < m->n && !id; i++)
		id = m->seat[i].submission;
	return work_qualify_after(w, id, m->game, &m->result, note, cap, err);
}

/* After a tournament's match: its tournament moves on in the same
 * transaction (the next matches queued, who is out recorded). */
static int move_tournament(struct work *w, int64_t match_id, char *note, size_t cap,
			   err_t err)
{
	if (event_match_recorded(w->store, w->job.id, match_id, note, cap, err) < 0)
		return -1;
	if (!note[0])
		snprintf(note, cap, "recorded");
	return 0;
}

static int record(struct work *w, struct played *m, char *note, size_t cap, err_t err)
{
	int64_t match_id;
	bool rated = false;
	if (store_begin(w->store, err) < 0)
		return -1;
	if (work_done(w, err) < 0 || insert_match(w, m, &match_id, err) < 0)
		return -1;
	for (int i = 0; i < m->n; i++)
		if (insert_seat(w, match_id, i, m, err) < 0 || insert_log(w, match_id, i, m, err) < 0 ||
		    insert_fault(w, match_id, i, m, err) < 0)
			return -1;
	bool challenge = strcmp(m->kind, "challenge") == 0;
	bool unrated = challenge || strcmp(m->kind, "comparison") == 0;
	int rc = unrated				      ? 0
		 : strcmp(m->kind, "ranked") == 0     ? rate(w, match_id, m, &rated, err)
		 : strcmp(m->kind, "tournament") == 0 ? move_tournament(w, match_id, note, cap, err)
						      : check_qualification(w, m, note, cap, err);
	if (rc < 0)
		return -1;
	if (strcmp(m->kind, "ranked") == 0)
		snprintf(note, cap, "%s", rated ? "rated" : "not rated: a player was superseded");
	if (challenge)
		snprintf(note, cap, "unrated, for %.64s",
			 json_string_value(json_object_get(w->payload, "challenger")) ?: "?");
	else if (unrated)
		snprintf(note, cap, "unrated");
	if (store_commit(w->store, err) < 0)
		return -1;
	char names[GAME_MAX_PLAYERS * 18] = "";
	for (int i = 0, at = 0; i < m->n && at < (int)sizeof names; i++)
		at += snprintf(names + at, sizeof names - (size_t)at, "%s%s", i ? ", " : "",
			       m->seat[i].name);
	snprintf(w->outcome, sizeof w->outcome, "%s match %lld of %s (%s): %s", m->kind,
		 (long long)match_id, m->game, names, note);
	return 0;
}

int work_match(struct work *w, err_t err)
{
	struct played *m = calloc(1, sizeof *m);
	if (!m) {
		err_set(err, "out of memory");
		return -1;
	}
	m->kind = json_string_value(json_object_get(w->payload, "kind"));
	m->game = json_string_value(json_object_get(w->payload, "game"));
	m->seed = json_integer_value(json_object_get(w->payload, "seed"));
	const struct game *game = m->game ? game_find(m->game) : NULL;
	int rc = -1;
	char note[160] = "";
	err->msg[0] = '\0';
	if (!game || !m->kind ||
	    (strcmp(m->kind, "ranked") && strcmp(m->kind, "qualifying") &&
	     strcmp(m->kind, "tournament") && strcmp(m->kind, "challenge") &&
	     strcmp(m->kind, "comparison")))
		err_set(err, "a match job of an unknown game or kind");
	else if (resolve_seats(w, m, err) == 0 && play(w, m, game, err) == 0) {
		rc = record(w, m, note, sizeof note, err);
		match_result_free(&m->result);
	}
	free(m);
	return rc;
}
