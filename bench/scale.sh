#!/bin/sh
# bench/scale.sh - bench-scale (bench/scale.c) on fields larger than make
# bench's: the store's time per recorded match at SMALL and LARGE ranked
# players, and the organiser's leaderboard at LARGE, each field with
# PER_PLAYER ranked matches of history per player.
# Usage: bench/scale.sh [SMALL LARGE PER_PLAYER]   (default 600 6000 40:
# 60,000 matches of history, a few minutes; 1500 15000 40 for a
# Halite-size field).  Builds bench-scale first.
set -e
cd "$(dirname "$0")/.."
make -s build/bench-scale
exec build/bench-scale "${1:-600}" "${2:-6000}" "${3:-40}"
