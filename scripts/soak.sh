#!/bin/bash
# The store under fire, bounded in time.  Phase 1: four workers share one
# database, nobody is killed: no job may be claimed twice and no "database
# is locked" may reach a log.  Phase 2: workers are killed with SIGKILL at
# random moments and restarted, over a few hundred jobs; afterwards no job
# is lost (all done, none parked), none is done twice (one match per match
# job, exactly the configured qualifying matches per submission), every
# rating equals a recompute from the match history, and SQLite's
# integrity_check says ok.  With --postgres the queue is a private
# PostgreSQL server (initdb in the soak's folder, a Unix socket only) and
# the workers of phase 2 are four "machines": each has its own folder for
# what it writes (its compile cache), so each plays binaries another
# compiled, fetched from the store.  Usage: scripts/soak.sh [--postgres] [SECONDS_OF_KILLING]
set -u
cd "$(dirname "$0")/.."
backend=sqlite
if [ "${1:-}" = --postgres ]; then backend=postgres; shift; fi
seconds=${1:-30}
judge=${JUDGE_BIN:-build/judge}
worker=${WORKER_BIN:-build/judge-worker}
dir=$(mktemp -d /tmp/judge-soak-XXXXXX)
db=$dir/jobs.sqlite
failures=0
. scripts/pg-private.sh
trap 'kill -9 $(jobs -p) 2>/dev/null; pg_private_stop; [ -n "${KEEP:-}" ] || rm -rf "$dir"' EXIT

if [ "$backend" = postgres ]; then
	chmod 755 "$dir"
	pg_private_start "$dir/pg" || { KEEP=1; exit 1; }
	db=$pg_url
fi

passes=0
check() { # check DESCRIPTION COMMAND...: one line per assertion
	if "${@:2}"; then
		echo "ok   $1"
		passes=$((passes + 1))
	else
		echo "FAIL $1"
		failures=$((failures + 1))
	fi
}
sql() {
	if [ "$backend" = postgres ]; then pg_private_sql "$1"
	else sqlite3 -batch "$db" "$1"; fi
}

# Killed workers retry their jobs: enough attempts that none is parked.
cat > "$dir/judge.json" <<EOF
{ "worker": { "max_attempts": 100, "lease_ms": 2000, "min_games": 1000,
              "qualify_matches": 2, "qualify_wins": 0 },
  "sandbox": { "cpu_ms": 2000 } }
EOF
export JUDGE_CONFIG=$dir/judge.json
# Four machines: the same settings, each its own compile cache.
for m in 0 1 2 3; do
	sed "s|{ \"worker\"|{ \"compile\": { \"cache_dir\": \"$dir/machine-$m\" }, \"worker\"|" \
		"$dir/judge.json" > "$dir/machine-$m.json"
done

upload() { # upload SHIPPED NEWNAME
	sed "s/PLAYER_NAME([A-Za-z0-9_]*)/PLAYER_NAME($2)/" \
		"games/dominator/players/AI$1.c" > "$dir/AI$2.c"
	"$judge" submit "$dir/AI$2.c" --game dominator --author "author_$2" --queue "$db" > /dev/null
}

echo "== phase 1 ($backend): four workers, one database"
for i in 1 2 3 4 5 6; do upload Dummy "Dum$i"; done
for i in 1 2; do upload Demo "Demo$i"; done
pids=()
for i in 1 2 3 4; do
	"$worker" --queue "$db" --jobs 1 --exit-when-idle --ranked-matches 15 \
		2> "$dir/worker$i.log" &
	pids+=($!)
done
wait "${pids[@]}"
check "every job done" test "$(sql "SELECT count(*) FROM jobs WHERE state <> 'done'")" = 0
check "no job claimed twice" test "$(sql "SELECT count(*) FROM jobs WHERE attempts <> 1")" = 0
check "no 'locked' in any log" sh -c "! grep -qi locked $dir/worker*.log"
check "a match per match job" test "$(sql "SELECT count(*) FROM jobs WHERE kind = 'match'")" = \
	"$(sql "SELECT count(*) FROM matches")"

echo "== phase 2: workers killed at random for $seconds s, then restarted"
for i in 1 2; do upload Dummy "Late$i"; done
start=$SECONDS
kills=0
nworkers=3
[ "$backend" = postgres ] && nworkers=4
spawn() { # spawn SLOT: on PostgreSQL, slot N is machine N
	local config=$JUDGE_CONFIG
	[ "$backend" = postgres ] && config=$dir/machine-$1.json
	JUDGE_CONFIG=$config "$worker" --queue "$db" --jobs 1 --ranked-matches 1000 \
		2>> "$dir/kill.log" &
}
pids=()
for ((i = 0; i < nworkers; i++)); do spawn $i; pids+=($!); done
while [ $((SECONDS - start)) -lt "$seconds" ]; do
	sleep "0.$((RANDOM % 9 + 1))"
	victim=$((RANDOM % nworkers))
	{ kill -9 "${pids[$victim]}" && kills=$((kills + 1)); wait "${pids[$victim]}"; } 2> /dev/null
	spawn $victim
	pids[$victim]=$!
done
{ kill -9 "${pids[@]}"; wait; } 2> /dev/null
# The leases of the killed workers expire; one clean worker finishes.
"$worker" --queue "$db" --jobs 2 --exit-when-idle --ranked-matches 0 2>> "$dir/kill.log"
echo "   $kills workers killed; $(sql "SELECT count(*) FROM jobs") jobs," \
	"$(sql "SELECT count(*) FROM matches") matches"
check "no job lost (all done)" test "$(sql "SELECT count(*) FROM jobs WHERE state <> 'done'")" = 0
check "none done twice (a match per match job)" test \
	"$(sql "SELECT count(*) FROM jobs WHERE kind = 'match'")" = "$(sql "SELECT count(*) FROM matches")"
check "every submission played its qualifying matches once" test "$(sql "
	SELECT count(*) FROM submissions s WHERE s.state NOT IN ('queued', 'compile_failed')
	AND (SELECT count(*) FROM match_players mp JOIN matches m ON m.id = mp.match_id
	     WHERE m.kind = 'qualifying' AND mp.submission_id = s.id) <> 2")" = 0
check "ratings equal a recompute" "$judge" ratings --recompute --check --game dominator \
	--queue "$db"
if [ "$backend" = sqlite ]; then
	check "integrity_check ok" test "$(sql "PRAGMA integrity_check")" = ok
else
	check "every match recorded with its players" test "$(sql "SELECT count(*) FROM matches m
		WHERE NOT EXISTS (SELECT 1 FROM match_players p WHERE p.match_id = m.id)")" = 0
	fetched=0
	for m in 0 1 2 3; do
		ls "$dir/machine-$m/store" 2> /dev/null | grep -q '^[0-9a-f]\{64\}$' &&
			fetched=$((fetched + 1))
	done
	check "machines fetched binaries from the store ($fetched of 4)" test "$fetched" -ge 2
fi
check "some workers were really killed" test "$kills" -gt 0
echo "soak: $passes passed, $failures failed"
exit $((failures > 0))
