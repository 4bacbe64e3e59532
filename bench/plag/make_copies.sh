#!/bin/bash
# make_copies.sh - disguised copies of Dominator players for the plagiarism
# benchmark: for every player and every level 1..8, COPIES copies with
# different seeds (level 8, a partial copy, puts one function of the player
# into another player of the list, a different one per seed; the shipped
# Demo is neither copied nor a host there), each checked to compile (gcc
# -std=gnu17 -O2 -Wall, plus errors for incompatible pointers, int
# conversions, implicit declarations and return types when the original is
# free of them).
#
# Usage: bench/plag/make_copies.sh [-o OUTDIR] [-n COPIES] [-l "LEVEL..."]
#                                  [PLAYER.c | FOLDER]...
#   default players: bench/plag/players/*.c plus
#                    games/dominator/players/AIDemo.c and AIDummy.c
#   default OUTDIR:  build/plag/copies  (writes OUTDIR/LEVEL/ORIGINAL-SEED.c)
# Prints the count of good copies per level and every failure; exits 1 if
# any copy failed to be made or to compile.  Run from anywhere.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=$root/build/plag/copies
copies=3
levels="1 2 3 4 5 6 7 8"
while getopts "o:n:l:h" opt; do
	case $opt in
	o) out=$OPTARG ;;
	n) copies=$OPTARG ;;
	l) levels=$OPTARG ;;
	*) sed -n '2,17p' "$0"; exit 2 ;;
	esac
done
shift $((OPTIND - 1))

players=()
if [ $# -eq 0 ]; then
	set -- "$root/bench/plag/players" "$root/games/dominator/players/AIDemo.c" \
		"$root/games/dominator/players/AIDummy.c"
fi
for arg in "$@"; do
	if [ -d "$arg" ]; then
		for f in "$arg"/*.c; do [ -e "$f" ] && players+=("$f"); done
	elif [ -f "$arg" ]; then
		players+=("$arg")
	else
		echo "make_copies: no such player or folder: $arg" >&2
		exit 2
	fi
done
if [ ${#players[@]} -eq 0 ]; then
	echo "make_copies: no players found" >&2
	exit 2
fi

kit=$root/games/dominator/kit
# what a copy must compile with: gcc's plain -Wall, and, when the original
# passes them, errors for the mistakes a wrong transformation would make
strict="-Werror=incompatible-pointer-types -Werror=int-conversion -Werror=implicit-function-declaration -Werror=return-type"
declare -A flags
for f in "${players[@]}"; do
	flags[$f]=""
	if gcc -std=gnu17 -O2 -Wall $strict -fsyntax-only -I"$kit" -I"$root/games/kit" "$f" 2>/dev/null; then
		flags[$f]=$strict
	fi
done
# level 8: the host of player number i's copy k (never itself, nor the Demo)
hosts=()
for f in "${players[@]}"; do
	[ "$(basename "$f")" != AIDemo.c ] && hosts+=("$f")
done
host_for() {
	local i n=${#hosts[@]} pick
	for ((i = 0; i < n; i++)); do
		[ "${hosts[i]}" = "$1" ] && break
	done
	pick=$(((i + $2) % n))
	[ "${hosts[pick]}" = "$1" ] && pick=$(((pick + 1) % n))
	echo "${hosts[pick]}"
}
failures=0
declare -A good made
for level in $levels; do
	mkdir -p "$out/$level"
	good[$level]=0
	made[$level]=0
	for f in "${players[@]}"; do
		base=$(basename "$f" .c)
		host=()
		[ $level = 8 ] && [ "$base" = AIDemo ] && continue
		for ((k = 1; k <= copies; k++)); do
			seed=$((level * 1000 + k))
			dst=$out/$level/$base-$seed.c
			[ $level = 8 ] && host=(--host "$(host_for "$f" "$k")")
			made[$level]=$((made[$level] + 1))
			if ! err=$("$here/disguise.py" --level "$level" --seed "$seed" "${host[@]}" "$f" "$dst" 2>&1); then
				echo "FAIL level $level $base seed $seed: $(echo "$err" | tail -1)"
				failures=$((failures + 1))
				rm -f "$dst"
				continue
			fi
			fl=${flags[$f]}
			[ $level = 8 ] && [ -z "${flags[${host[1]}]}" ] && fl=""
			if ! err=$(gcc -std=gnu17 -O2 -Wall $fl -fsyntax-only -I"$kit" -I"$root/games/kit" "$dst" 2>&1); then
				echo "FAIL level $level $base seed $seed: does not compile: $dst"
				echo "$err" | grep -m 3 'error'
				failures=$((failures + 1))
				continue
			fi
			good[$level]=$((good[$level] + 1))
		done
	done
done
for level in $levels; do
	echo "level $level: ${good[$level]}/${made[$level]} copies compile"
done
echo "${#players[@]} players, copies in $out"
[ $failures -eq 0 ]
