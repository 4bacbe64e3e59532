#!/bin/sh
# The sandbox at work: five small programs, one well-behaved and four
# hostile, each run by `judge sandbox run` with a 0.5 s CPU budget and a
# 64 MiB memory limit.  Usage: scripts/sandbox-demo.sh [path/to/judge]
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

