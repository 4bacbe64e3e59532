#!/bin/bash
# course.sh - a course's elimination played for real, and its forecast.
# N students (variants of the shipped Demo and Dummy, so strengths
# mix) qualify with one timed match each, then an elimination down to 11 is
# forecast by `judge tournament plan` from those match times and played by
# judge-worker (--jobs 2, SQLite) to its end.  Figures: matches and wall
# time, forecast against played (goal: within 25%), and the forecast for a
# course of 300 students on this machine's 2 cores, calibrated by the ratio
# just measured (goal: under an hour).  Usage: bench/course.sh [JUDGE] [N];
# it prints, it never fails on speed.
set -u
cd "$(dirname "$0")/.."
judge=${1:-build/judge}
worker=${judge}-worker
# BENCH_QUICK=1 (make bench-smoke): the fewest students an elimination
# down to 11 needs, to see it still runs.
n=${2:-$([ "${BENCH_QUICK:-0}" != 0 ] && echo 12 || echo 40)}
dir=$(mktemp -d /tmp/judge-bench-course-XXXXXX)
trap 'rm -rf "$dir"' EXIT
q=$dir/jobs.sqlite
cfg=$dir/judge.json
cat > "$cfg" <<JSON
{ "worker": { "qualify_matches": 1, "qualify_wins": 0, "min_games": 0, "compare_pairs": 0 },
  "compile": { "cache_dir": "$dir/cache" } }
JSON
export JUDGE_CONFIG=$cfg
shipped=(Demo Dummy)
for ((i = 1; i <= n; i++)); do
	p=${shipped[i % 2]}
	sed "s/PLAYER_NAME([A-Za-z]*)/PLAYER_NAME(P$i)/" "games/dominator/players/AI$p.c" > "$dir/AIP$i.c"
	"$judge" submit "$dir/AIP$i.c" --game dominator --author "s$i" --queue "$q" > /dev/null || exit 1
	echo "s$i,g$((i % 3))" >> "$dir/roster.csv"
done
"$worker" --queue "$q" --jobs 2 --exit-when-idle --ranked-matches 0 2> /dev/null || exit 1
echo '{"phases": [{"kind": "elimination", "remain": 11}]}' > "$dir/spec.json"
"$judge" tournament create course --game dominator --spec "$dir/spec.json" --seed 1 \
	--queue "$q" > /dev/null || exit 1
"$judge" tournament add course --roster "$dir/roster.csv" --queue "$q" > /dev/null || exit 1
for ((i = 1; i <= n; i++)); do
	"$judge" tournament pick course "s$i" "$i" --queue "$q" > /dev/null || exit 1
done
plan=$("$judge" tournament plan course --slots 2 --queue "$q") || exit 1
"$judge" tournament start course --queue "$q" > /dev/null || exit 1
start=$(date +%s%N)
"$worker" --queue "$q" --jobs 2 --exit-when-idle --ranked-matches 0 2> /dev/null || exit 1
wall=$(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
played=$(sqlite3 -batch "$q" "SELECT COUNT(*) FROM tournament_matches WHERE match_id IS NOT NULL")
out=$(sqlite3 -batch "$q" "SELECT COUNT(*) FROM entrants WHERE out_round IS NOT NULL")
# the 300-student course: a roster alone is enough to forecast it
for ((i = 1; i <= 300; i++)); do echo "big$i"; done > "$dir/big.csv"
"$judge" tournament create big --game dominator --spec "$dir/spec.json" --seed 2 \
	--queue "$q" > /dev/null || exit 1
"$judge" tournament add big --roster "$dir/big.csv" --queue "$q" > /dev/null || exit 1
big=$("$judge" tournament plan big --slots 2 --queue "$q") || exit 1

# "... about 1234 matches in 567 waves: 0.2 h (612 s)" and "in all: 0.2 h (612 s) ..."
fmatches=$(echo "$plan" | sed -n 's/.* \([0-9.]*\) matches in .*/\1/p' | head -1)
fsecs=$(echo "$plan" | sed -n 's/^in all: .* h (\([0-9.]*\) s).*/\1/p')
echo "course of $n students, elimination to 11 on 2 slots (judge-worker --jobs 2, SQLite):"
echo "$plan" | sed 's/^/  forecast: /'
printf '  played: %d rounds, %d matches in %.1f s\n' "$out" "$played" "$wall"
awk -v f="$fmatches" -v p="$played" -v fs="$fsecs" -v w="$wall" 'BEGIN {
	printf "  forecast/played: matches %.2f, time %.2f (goal: within 0.75 to 1.25)\n",
		f / p, fs / w }'
echo "course of 300 students:"
echo "$big" | sed 's/^/  forecast: /'
bsecs=$(echo "$big" | sed -n 's/^in all: .* h (\([0-9.]*\) s).*/\1/p')
awk -v b="$bsecs" -v fs="$fsecs" -v w="$wall" 'BEGIN {
	printf "  calibrated by the run above: %.0f min on 2 cores (goal: under 60)\n",
		b / 60 * (w / fs) }'
