#!/bin/bash
# worker_store.sh - what the store, ratings, replays and scheduling cost a
# ranked match: N ranked 4-Demo Dominator matches played by one worker slot
# (judge-worker --jobs 1) through the store, on PostgreSQL (a private
# server, as scripts/pg-private.sh starts) and on SQLite, against N bare
# sandboxed matches of the same players (`judge play`, one process each, no
# store; each run starts a process, loads the config and checks the
# compile cache, which the worker does once).  Figures: matches per second
# of wall time and per CPU second (the worker, its players and, on
# PostgreSQL, the server's backends counted), and the ratio bare/worker per
# CPU second (goal >= 0.8: the worker's match costs at most 25% more).
# Then the same N matches with 1, 2 and 4 worker slots on each store, side
# by side: matches per second of wall time, which grows with the slots
# until the cores run out.  Usage: bench/worker_store.sh [JUDGE] [N]; it
# prints, it never fails on speed.
set -u
cd "$(dirname "$0")/.."
judge=${1:-build/judge}
worker=${judge}-worker
# BENCH_QUICK=1 (make bench-smoke): a few matches, to see it still runs.
n=${2:-$([ "${BENCH_QUICK:-0}" != 0 ] && echo 3 || echo 40)}
dir=$(mktemp -d /tmp/judge-bench-worker-XXXXXX)
chmod 755 "$dir"
. scripts/pg-private.sh
trap 'pg_private_stop; rm -rf "$dir"' EXIT
TIMEFORMAT='%R %U %S'

# "wall cpu" of a command, its output dropped.
timed() { { time "$@" > /dev/null 2>&1; } 2>&1 | awk '{ print $1, $2 + $3 }'; }

bare() {
	for ((i = 1; i <= n; i++)); do
		"$judge" play dominator Demo Demo Demo Demo --seed "$i" -o "$dir/bare.json" || return 1
	done
}

# The server's CPU seconds so far: the postmaster's own and that of the
# backends it has reaped (a connection's backend ends with it).
server_cpu() {
	local pid
	pid=$(head -1 "${pg_dir:-/nonexistent}/data/postmaster.pid" 2>/dev/null) || { echo 0; return; }
	awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15 + $16 + $17) / hz }' "/proc/$pid/stat"
}

# Four qualified Demos in the store at $1, then n ranked matches timed,
# played by $2 worker slots (default 1).
through_store() {
	local queue=$1 slots=${2:-1} cfg=$dir/judge.json
	cat > "$cfg" <<JSON
{ "worker": { "qualify_matches": 0, "min_games": 100000, "seed_secret": "bench" },
  "compile": { "cache_dir": "$dir/cache" } }
JSON
	for p in Ann Ben Cid Dan; do
		sed "s/PLAYER_NAME([A-Za-z]*)/PLAYER_NAME($p)/" games/dominator/players/AIDemo.c \
			> "$dir/AI$p.c"
		JUDGE_CONFIG=$cfg "$judge" submit "$dir/AI$p.c" --game dominator --author "$p" \
			--queue "$queue" > /dev/null || return 1
	done
	JUDGE_CONFIG=$cfg "$worker" --queue "$queue" --jobs 1 --exit-when-idle --ranked-matches 0 \
		2> /dev/null || return 1
	local before after
	before=$(server_cpu)
	set -- $(JUDGE_CONFIG=$cfg timed "$worker" --queue "$queue" --jobs "$slots" \
		--exit-when-idle --ranked-matches "$n")
	after=$(server_cpu)
	echo "$1 $(echo "$2 $before $after" | awk '{ print $1 + $3 - $2 }')"
}

report() { # NAME "wall cpu" ["wall cpu" of bare]
	echo "$2 ${3:-}" | awk -v n="$n" -v name="$1" '{
		printf "    %-26s %6.1f matches/s %6.1f per CPU s", name, n / $1, n / $2
		if (NF > 2) printf "   bare/this per CPU s %.2f (goal >= 0.8)", $4 / $2
		printf "\n" }'
}

echo "ranked 4-Demo Dominator matches, $n each, one at a time"
b=$(timed bare) || { echo "bench: judge play failed"; exit 1; }
report "bare (judge play)" "$b"
rm -rf "$dir/cache"
s=$(through_store "$dir/jobs.sqlite") || { echo "bench: the SQLite worker failed"; exit 1; }
report "worker, SQLite store" "$s" "$b"
pg_private_start "$dir/pg" || exit 1
rm -rf "$dir/cache"
p=$(through_store "$pg_url") || { echo "bench: the PostgreSQL worker failed"; exit 1; }
report "worker, PostgreSQL store" "$p" "$b"

# A fresh store of each kind for each number of slots: its own SQLite file,
# its own PostgreSQL database.
slot_counts="1 2 4"
[ "${BENCH_QUICK:-0}" != 0 ] && slot_counts=2
echo "the same $n matches by $slot_counts worker slots ($(nproc) cores), matches/s of wall time"
printf '    %-8s %10s %12s\n' slots SQLite PostgreSQL
for slots in $slot_counts; do
	rm -rf "$dir/cache"
	s=$(through_store "$dir/jobs-$slots.sqlite" "$slots") || { echo "bench: SQLite, $slots slots"; exit 1; }
	createdb -h "$pg_dir" -U judge "judge$slots" || exit 1
	rm -rf "$dir/cache"
	p=$(through_store "postgresql://judge@/judge$slots?host=$pg_dir" "$slots") ||
		{ echo "bench: PostgreSQL, $slots slots"; exit 1; }
	echo "$slots $s $p" | awk -v n="$n" '{ printf "    %-8d %10.1f %12.1f\n", $1, n / $2, n / $4 }'
done
