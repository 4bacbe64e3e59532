#!/bin/sh
# The judge's main job on its embedded default, db/jobs.sqlite: a fresh
# database, the shipped players and a few variants uploaded as contestants
# would, a worker that compiles and qualifies them and plays ranked
# matches until a set number is done, then the leaderboard (also written
# as one HTML page).  Qualification here is against Null (config/demo.json)
# so that the weaker variants enter the ranking too.
# Usage: scripts/demo.sh [RANKED_MATCHES]
set -eu
cd "$(dirname "$0")/.."
matches=${1:-40}
queue=db/jobs.sqlite
out=build/demo
export JUDGE_CONFIG=config/demo.json
mkdir -p "$out" db
rm -f "$queue" "$queue-wal" "$queue-shm"

variant() { # variant SHIPPED NAME SED-SCRIPT: a copy under another name
	sed -e "s/PLAYER_NAME([A-Za-z0-9_]*)/PLAYER_NAME($2)/" -e "$3" \
		"games/dominator/players/AI$1.c" > "$out/AI$2.c"
}
variant Dummy Dummy ''
variant Demo Demo ''
variant Null Null ''
variant Demo Wanderer 's/move_witch(w.id\[i\]);/command(w.id[i], None);/'
variant Demo Pacifist 's/command(id, (Dir)d);/command(id, None);/'
variant Dummy Dummy2 ''

echo "== uploading"
for p in Dummy Demo Null Wanderer Pacifist Dummy2; do
	printf '%-10s submission ' "$p"
	scripts/upload "$out/AI$p.c" --game dominator --author "author_$p" --queue "$queue"
done

echo "== judging ($matches ranked matches)"
build/judge-worker --queue "$queue" --exit-when-idle --ranked-matches "$matches" 2> "$out/worker.log"
echo "$(grep -c ': job ' "$out/worker.log") jobs done (log: $out/worker.log)"

echo "== leaderboard"
build/judge leaderboard --game dominator --queue "$queue"
build/judge leaderboard --game dominator --queue "$queue" --html "$out/leaderboard.html"
echo "(also $out/leaderboard.html)"
