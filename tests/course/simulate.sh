#!/bin/bash
# simulate.sh - a course from uploads to grades on PostgreSQL, with four
# worker processes killed and restarted at random all along.  N students
# in three groups upload variants of the shipped players (Demo strong,
# Dummy middling, Null failing qualification) before a qualification
# deadline; a late upload is refused; every qualified student but one
# picks a representative explicitly; eliminations run until 11 remain,
# then a round robin with a 4/3/2/1 final.  Afterwards: no job lost, none
# done twice, and tests/course/check.py re-checks every elimination round,
# the final's points and places, and the grades CSV from the recorded
# matches with its own implementation of the rules.
# Usage: tests/course/simulate.sh [STUDENTS (default 40)] [--sqlite]
set -u
cd "$(dirname "$0")/../.."
n=${1:-40}
backend=postgres
[ "${2:-}" = --sqlite ] && backend=sqlite
judge=${JUDGE_BIN:-build/judge}
worker=${WORKER_BIN:-${judge}-worker}
dir=$(mktemp -d /tmp/judge-course-XXXXXX)
chmod 755 "$dir"
. scripts/pg-private.sh
trap 'kill -9 $(jobs -p) 2>/dev/null; wait 2>/dev/null; pg_private_stop; [ -n "${KEEP:-}" ] || rm -rf "$dir"' EXIT
q=$dir/jobs.sqlite
if [ "$backend" = postgres ]; then
	pg_private_start "$dir/pg" || { KEEP=1; exit 1; }
	q=$pg_url
fi
sql() {
	if [ "$backend" = postgres ]; then pg_private_sql "$1"
	else sqlite3 -batch "$q" "$1"; fi
}
csv() { # csv QUERY > FILE: rows as CSV with a header
	if [ "$backend" = postgres ]; then psql -X -q --csv -h "$pg_dir" -U judge -d judge -c "$1"
	else sqlite3 -batch -csv -header "$q" "$1"; fi
}
failures=0
check() {
	if "${@:2}"; then echo "ok   $1"; else echo "FAIL $1"; failures=$((failures + 1)); fi
}

# Killed workers retry their jobs: enough attempts that none is parked;
# short leases, so that what a dead worker held on another "machine"
# comes back soon (on this host it is taken over at once).  No version
# comparisons: the checks below count the course's matches, and a
# student's second version would add unrated ones.
cat > "$dir/judge.json" <<JSON
{ "worker": { "max_attempts": 100, "lease_ms": 3000, "min_games": 0,
              "qualify_matches": 2, "qualify_wins": 0, "qualify_opponent": "Dummy",
              "seed_secret": "course", "compare_pairs": 0 },
  "compile": { "cache_dir": "$dir/cache" } }
JSON
export JUDGE_CONFIG=$dir/judge.json

# The deadline leaves time for the uploads (two a second on a loaded
# machine) and no more; the waits below grow with the field, so that a
# run of 300 on demand is judged by its results, not by a 40-student clock.
deadline_s=$(($(date +%s) + 20 + n / 2))
deadline=$(date -u -d "@$deadline_s" +%Y-%m-%dT%H:%M:%SZ)
cat > "$dir/spec.json" <<JSON
{ "grades": {"not_qualified": 0, "qualified": 5, "max": 10, "copy": 0},
  "phases": [
    {"kind": "qualification", "deadline": "$deadline", "self_match": false, "matches": 2,
     "wins": 0, "opponent": "Dummy"},
    {"kind": "elimination", "remain": 11, "opponent": "Dummy"},
    {"kind": "round-robin", "from": "survivors", "size": 4, "matches": 3, "final": 3}
  ] }
JSON
"$judge" tournament create course --game dominator --spec "$dir/spec.json" --seed 7 \
	--queue "$q" > /dev/null || exit 1
"$judge" tournament start course --queue "$q" > /dev/null || exit 1 # qualification opens

# Students: one in eight uploads a player that does not compile (never
# qualified), the others a Demo, a Dummy or a Null (strong, middling,
# weak); student 5 never picks a representative.
kinds=(Demo Dummy Demo Null Demo Dummy Demo Broken)
for ((i = 1; i <= n; i++)); do
	p=${kinds[i % 8]}
	sed "s/PLAYER_NAME([A-Za-z]*)/PLAYER_NAME(P$i)/" "games/dominator/players/AI${p/Broken/Demo}.c" \
		> "$dir/AIP$i.c"
	[ "$p" = Broken ] && echo "int broken = undeclared_name;" >> "$dir/AIP$i.c"
	"$judge" submit "$dir/AIP$i.c" --game dominator --author "s$i" --queue "$q" > /dev/null || exit 1
	echo "s$i,g$((i % 3)),Student $i" >> "$dir/roster.csv"
done
"$judge" tournament add course --roster "$dir/roster.csv" --queue "$q" > /dev/null || exit 1

spawn() { # spawn SLOT
	"$worker" --queue "$q" --jobs 1 2>> "$dir/worker$1.log" &
	pids[$1]=$!
}
kills=0
killer() { # four workers, one killed at random every 0-3 s, until the file stop exists
	local pids=()
	for w in 0 1 2 3; do spawn $w; done
	while [ ! -e "$dir/stop" ]; do
		sleep "$((RANDOM % 3)).$((RANDOM % 10))"
		local v=$((RANDOM % 4))
		kill -9 "${pids[$v]}" 2> /dev/null && kills=$((kills + 1))
		wait "${pids[$v]}" 2> /dev/null
		spawn $v
	done
	echo "$kills" > "$dir/kills"
	kill -9 "${pids[@]}" 2> /dev/null
	wait 2> /dev/null
}
killer 2> /dev/null &
killer_pid=$!

wait_until() { # wait_until SECONDS QUERY: until QUERY answers 1
	local until=$((SECONDS + $1))
	while [ "$(sql "$2")" != 1 ]; do
		[ $SECONDS -lt $until ] || { echo "FAIL waited $1 s for: $2"; return 1; }
		sleep 0.5
	done
}
wait_until $((900 + 10 * n)) "SELECT CASE WHEN count(*) = 0 THEN 1 ELSE 0 END FROM jobs
	WHERE state IN ('queued', 'running')" || failures=$((failures + 1))
# The deadline comes: uploads close for everybody not in the tournament.
while [ "$(date +%s)" -le "$deadline_s" ]; do sleep 0.5; done
sed "s/PLAYER_NAME([A-Za-z]*)/PLAYER_NAME(Late)/" games/dominator/players/AIDemo.c > "$dir/AILate.c"
late=$("$judge" submit "$dir/AILate.c" --game dominator --author latecomer --queue "$q" 2>&1)
check "an upload after the deadline is refused" test $? -ne 0
check "... saying so" grep -q "closed" <<< "$late"
for ((i = 1; i <= n; i++)); do
	[ $i = 5 ] && continue
	id=$(sql "SELECT id FROM submissions WHERE author = 's$i' AND state = 'qualified'")
	[ -n "$id" ] && { "$judge" tournament pick course "s$i" "$id" --queue "$q" > /dev/null || exit 1; }
done
wait_until 60 "SELECT CASE WHEN phase = 1 THEN 1 ELSE 0 END FROM tournaments
	WHERE name = 'course'" || failures=$((failures + 1)) # the deadline ended the qualification
"$judge" tournament start course --queue "$q" > /dev/null || exit 1 # the first round
# The organiser starts the final when the elimination is over.
echo "   qualification over after $SECONDS s"
wait_until $((1800 + 20 * n)) "SELECT CASE WHEN phase = 2 THEN 1 ELSE 0 END FROM tournaments
	WHERE name = 'course'" || failures=$((failures + 1))
"$judge" tournament start course --queue "$q" > /dev/null || exit 1
wait_until 900 "SELECT CASE WHEN phase = phases THEN 1 ELSE 0 END FROM tournaments
	WHERE name = 'course'" || failures=$((failures + 1))
echo "   elimination and final over after $SECONDS s"
touch "$dir/stop"
wait "$killer_pid"
kills=$(cat "$dir/kills" 2> /dev/null || echo 0)
# What dead workers left is finished by one clean worker.
"$worker" --queue "$q" --jobs 2 --exit-when-idle --ranked-matches 0 2>> "$dir/worker-end.log"

echo "   $n students, $kills workers killed; $(sql "SELECT count(*) FROM matches") matches," \
	"$(sql "SELECT count(*) FROM tournament_matches") in the tournament"
check "workers were really killed" test "$kills" -gt 0
check "no job lost (all done)" test "$(sql "SELECT count(*) FROM jobs WHERE state <> 'done'")" = 0
check "none done twice (a match per match job)" test \
	"$(sql "SELECT count(*) FROM jobs WHERE kind = 'match'")" = "$(sql "SELECT count(*) FROM matches")"
check "every tournament match recorded once" test "$(sql "SELECT count(*) FROM tournament_matches
	WHERE match_id IS NULL")" = 0
csv "SELECT id, author, grp, representative, out_phase, out_round, place FROM entrants
	ORDER BY id" > "$dir/entrants.csv"
csv "SELECT t.phase, t.round, t.stage, t.grp, t.game_no, t.seats, t.match_id, p.seat, p.score
	FROM tournament_matches t JOIN match_players p ON p.match_id = t.match_id
	ORDER BY t.phase, t.round, t.stage, t.grp, t.game_no, p.seat" > "$dir/matches.csv"
csv "SELECT s.author, s.state FROM submissions s" > "$dir/submissions.csv"
"$judge" tournament grades course --csv --queue "$q" > "$dir/grades.csv"
check "the record re-checked by an independent implementation of the rules" \
	python3 tests/course/check.py "$dir" "$n" 11
[ $failures = 0 ] || KEEP=1
[ $failures = 0 ] || echo "kept: $dir"
echo "course: $failures failed"
exit $((failures > 0))
