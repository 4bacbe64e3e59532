#!/bin/sh
# The judge's main job on its embedded default, db/jobs.sqlite: a fresh
# database, the shipped players and a few variants of each game uploaded as
# contestants would, a worker that compiles and qualifies them and plays
# ranked matches until a set number is done, then each game's leaderboard
# (also written as one HTML page).  Qualification here is against Null
# (config/demo.json) so that the weaker variants enter the ranking too.
# Blitz2018's matches mix 2 to 6 players: its board counts them by size.
# Usage: scripts/demo.sh [RANKED_MATCHES_PER_GAME] [GAME...]
#        (default: 40 dominator blitz)
set -eu
cd "$(dirname "$0")/.."
matches=${1:-40}
[ $# -gt 0 ] && shift
games=${*:-dominator blitz}
queue=db/jobs.sqlite
out=build/demo
export JUDGE_CONFIG=config/demo.json
mkdir -p "$out" db
rm -f "$queue" "$queue-wal" "$queue-shm"

variant() { # variant GAME SHIPPED NAME SED-SCRIPT: a copy under another name
	sed -e "s/PLAYER_NAME([A-Za-z0-9_]*)/PLAYER_NAME($3)/" -e "$4" \
		"games/$1/players/AI$2.c" > "$out/$1-AI$3.c"
}

# The shipped three, a second Dummy, and two weakened Demos where the game
# has an obvious way to weaken one.
variants() { # variants GAME: prints the names it wrote
	variant "$1" Dummy Dummy ''
	variant "$1" Demo Demo ''
	variant "$1" Null Null ''
	variant "$1" Dummy Dummy2 ''
	case $1 in
	dominator)
		variant "$1" Demo Wanderer 's/move_witch(w.id\[i\]);/command(w.id[i], None);/'
		variant "$1" Demo Pacifist 's/command(id, (Dir)d);/command(id, None);/'
		echo Dummy Demo Null Dummy2 Wanderer Pacifist ;;
	blitz)
		variant "$1" Demo Hermit 's/set_move(l, random_int(0, 1) ? NORTH : WEST);/;/'
		variant "$1" Demo Northward 's/random_int(0, 1) ? NORTH : WEST/NORTH/'
		echo Dummy Demo Null Dummy2 Hermit Northward ;;
	*)
		echo Dummy Demo Null Dummy2 ;;
	esac
}

for game in $games; do
	echo "== uploading ($game)"
	for p in $(variants "$game"); do
		printf '%-10s submission ' "$p"
		scripts/upload "$out/$game-AI$p.c" --game "$game" --author "author_$p" --queue "$queue"
	done
done

total=$((matches * $(echo $games | wc -w)))
echo "== judging ($total ranked matches)"
build/judge-worker --queue "$queue" --exit-when-idle --ranked-matches "$total" 2> "$out/worker.log"
echo "$(grep -c ': job ' "$out/worker.log") jobs done (log: $out/worker.log)"

for game in $games; do
	echo "== leaderboard ($game)"
	build/judge leaderboard --game "$game" --queue "$queue"
	build/judge leaderboard --game "$game" --queue "$queue" --html "$out/$game-leaderboard.html"
	echo "(also $out/$game-leaderboard.html)"
done

# A short event after the ladder: the qualified Dominator players in an
# elimination of the course's rule down to three (docs/organisers.md).
case " $games " in *" dominator "*)
	echo "== an elimination (dominator), down to 3"
	echo '{"phases": [{"kind": "elimination", "remain": 3}]}' > "$out/course.json"
	build/judge tournament create demo-course --game dominator --spec "$out/course.json" \
		--queue "$queue"
	sqlite3 -batch "$queue" "SELECT author, MAX(id) FROM submissions WHERE game = 'dominator'
		AND state IN ('qualified', 'superseded') GROUP BY author" |
	while IFS='|' read -r author id; do
		build/judge tournament add demo-course "$author" --queue "$queue" > /dev/null &&
		build/judge tournament pick demo-course "$author" "$id" --queue "$queue" > /dev/null
	done
	build/judge tournament start demo-course --queue "$queue"
	build/judge-worker --queue "$queue" --exit-when-idle --ranked-matches 0 2>> "$out/worker.log"
	build/judge tournament show demo-course --queue "$queue"
	build/judge tournament grades demo-course --queue "$queue" ;;
esac
