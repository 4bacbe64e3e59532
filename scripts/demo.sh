#!/bin/sh
# The judge at work: five small programs, one well-behaved and four
# hostile, each run by `judge sandbox run` with a 0.5 s CPU budget and a
# 64 MiB memory limit; then a whole match of Dominator between the shipped
# players.  Usage: scripts/demo.sh [path/to/judge]
set -eu
judge=${1:-build/judge}
out=build/demo
mkdir -p "$out"
for name in echo_sum snoop hog spin forker; do
	gcc -std=gnu17 -O2 -static "scripts/demo/$name.c" -o "$out/$name"
done
for name in echo_sum snoop hog spin forker; do
	echo "== $name"
	echo "1 2 3 4" | "$judge" sandbox run --cpu 500 --memory 64 --wall 2000 "$out/$name" || true
done

echo "== a match of Dominator: Dummy against two Demos and Null, seed 30"
"$judge" play dominator Dummy Demo Demo Null --seed 30 -o "$out/match.json"
echo "(replay: $out/match.json)"
