#!/bin/sh
# An upgrade over a running installation: the second `make install` puts
# every shipped file in place, leaves no file of the older version, nests
# no folder inside its old copy, and the worker started from the first
# installation goes on and stops cleanly.
set -eu
tmp=$(mktemp -d)
worker=
cleanup() {
	[ -n "$worker" ] && kill "$worker" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "install test: $*" >&2; exit 1; }

prefix=$tmp/prefix
share=$prefix/share/judge
make -s install PREFIX="$prefix" >/dev/null

# What an older version would have left: a changed page, a settings file
# this version no longer ships, one it added since.
echo "old text" > "$share/docs/organisers.md"
echo "stale" > "$share/config/games/retired.cnf"
rm "$share/config/games/dominator.cnf"

mkdir "$tmp/work"
(cd "$tmp/work" && exec "$prefix/bin/judge-worker" --queue db/jobs.sqlite --jobs 1 \
	2>"$tmp/worker.log") &
worker=$!
sleep 1
kill -0 "$worker" 2>/dev/null || fail "the installed worker did not start: $(cat "$tmp/worker.log")"

make -s install PREFIX="$prefix" >/dev/null

cmp -s docs/organisers.md "$share/docs/organisers.md" || fail "docs/organisers.md was not replaced"
cmp -s config/games/dominator.cnf "$share/config/games/dominator.cnf" ||
	fail "config/games/dominator.cnf is missing after the upgrade"
[ ! -e "$share/config/games/retired.cnf" ] || fail "a file of the old version was left behind"
for d in config docs games; do
	[ ! -e "$share/$d/$d" ] || fail "$d/ was copied into its old copy ($share/$d/$d)"
done
[ ! -e "$share.old" ] && [ ! -e "$share.new" ] || fail "a staging folder was left behind"
cmp -s build/judge "$prefix/bin/judge" || fail "bin/judge was not replaced"

kill -0 "$worker" 2>/dev/null || fail "the running worker died during the upgrade"
(cd "$tmp/work" && "$prefix/bin/judge" config >/dev/null) ||
	fail "the upgraded judge does not find its data"
# The installed data holds all a student kit is made of.
(cd "$tmp/work" && "$prefix/bin/judge" kit starwar -o kit.tar.gz 2>"$tmp/kit.log") ||
	fail "the installed judge cannot write a student kit: $(cat "$tmp/kit.log")"
tar tzf "$tmp/work/kit.tar.gz" | grep -q '^starwar-kit/opponents/Dummy-0.o$' ||
	fail "the installed judge's student kit has no reference opponent"
kill -TERM "$worker"
wait "$worker" || fail "the worker did not stop cleanly after the upgrade: $(cat "$tmp/worker.log")"
worker=
echo "install test: upgrade over a running installation: every file in place"
