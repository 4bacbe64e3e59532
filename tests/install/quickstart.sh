#!/bin/sh
# The organiser's quick start (docs/organisers.md, "Quick start") followed
# from a fresh clone of this repository, step by step: install into a
# prefix; a user (judgeqs, made if missing), a working directory and
# settings outside the prefix; the organiser's token and a roster's; the
# service and a worker as that user; a student's upload through the
# service with the kit's scripts/upload, its qualifying matches played; a
# backup; an upgrade (stop, install again, start); a backup again, holding
# every submission and match of the first.  Paths live in a temporary
# folder, the service on a free port.  Needs root (it makes the user and
# runs commands as it).
set -eu
fail() { echo "quickstart test: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || fail "run it as root: it makes a user and starts the judge as that user"

repo=$(pwd)
tmp=$(mktemp -d)
chmod 755 "$tmp"
serve_pid= worker_pid=
stop_judge() {
	for p in $serve_pid $worker_pid; do kill -TERM "$p" 2>/dev/null || true; done
	for p in $serve_pid $worker_pid; do wait "$p" 2>/dev/null || true; done
	serve_pid= worker_pid=
}
trap 'stop_judge; rm -rf "$tmp"' EXIT

prefix=$tmp/usr-local
work=$tmp/var-lib-judge
etc=$tmp/etc-judge
user=judgeqs
as_judge() { (cd "$work" && runuser -u "$user" -- env PATH="$prefix/bin:$PATH" \
	JUDGE_CONFIG="$etc/judge.json" "$@"); }

# 1. Install, from a fresh clone.
git clone -q "$repo" "$tmp/judge-src"
make -C "$tmp/judge-src" -s -j2 install PREFIX="$prefix" >"$tmp/make.log" 2>&1 ||
	fail "make install failed: $(tail -5 "$tmp/make.log")"

# 2. The user, the working directory, the settings (outside the prefix).
id "$user" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$user"
install -d -o "$user" -g "$user" "$work"
mkdir -p "$etc"
printf '{\n  "contest": { "games": ["dominator"] },\n  "sandbox": { "cpu_ms": 1000, "memory_mb": 512 }\n}\n' \
	> "$etc/judge.json"
echo "JUDGE_CONFIG=$etc/judge.json" > "$etc/environment"
as_judge judge config >"$tmp/config.log" 2>&1 || fail "judge config: $(cat "$tmp/config.log")"
grep -q "$etc/judge.json" "$tmp/config.log" || fail "judge config does not read the organiser's file"

# 3. Tokens: the organiser's, and a roster's.
teacher=$(as_judge judge token add --author teacher --organiser)
printf 'ada,group-a,Ada Lovelace\nalan,group-b,Alan Turing\ngrace,group-a,Grace Hopper\n' \
	> "$work/roster.csv"
as_judge judge token import roster.csv -o tokens.csv 2>/dev/null
[ "$(stat -c %a "$work/tokens.csv")" = 600 ] || fail "tokens.csv is readable by others"
ada=$(sed -n 's/^ada,.*,//p' "$work/tokens.csv")
[ -n "$ada" ] || fail "tokens.csv has no token for ada: $(cat "$work/tokens.csv")"

# 4. The service and the worker, by the very commands of the installed
# systemd units (the container has no systemd to start them): each unit's
# ExecStartPre and ExecStart, with its environment file, as its user, in
# the working directory; the service on a free port instead of 8080.
units=$prefix/share/judge/systemd
if command -v systemd-analyze >/dev/null 2>&1; then
	systemd-analyze verify "$units/judge-serve.service" "$units/judge-worker.service" \
		>"$tmp/verify.log" 2>&1 || fail "the installed units do not verify: $(cat "$tmp/verify.log")"
fi
unit_cmd() { # unit_cmd UNIT KEY: the command line of KEY= in the installed UNIT
	sed -n "s|^$2=||p" "$units/$1.service" | head -1
}
read_units() { # the installed units' commands (again after an upgrade)
	serve_cmd=$(unit_cmd judge-serve ExecStart | sed 's|--listen 127.0.0.1:8080|--listen 127.0.0.1:0|')
	worker_pre=$(unit_cmd judge-worker ExecStartPre)
	worker_cmd=$(unit_cmd judge-worker ExecStart)
	case "$serve_cmd $worker_pre $worker_cmd" in
	*"$prefix/bin/judge serve"*"$prefix/bin/judge config"*"$prefix/bin/judge-worker"*) ;;
	*) fail "the installed units do not run the installed judge: $serve_cmd / $worker_pre / $worker_cmd" ;;
	esac
	grep -q '^EnvironmentFile=-/etc/judge/environment$' "$units/judge-worker.service" ||
		fail "the worker's unit does not read /etc/judge/environment"
}
# as_unit COMMAND...: as the units run it (user, directory, environment
# file), in the shell that calls it, which it replaces: call it in ( ) or
# with & (then $! is the command's own process, which a TERM stops).
as_unit() {
	cd "$work" && set -a && . "$etc/environment" && set +a &&
		exec runuser -u "$user" -- env JUDGE_CONFIG="$JUDGE_CONFIG" "$@"
}
start_judge() {
	read_units
	# shellcheck disable=SC2086 # the units' command lines, split as systemd splits them
	(as_unit $worker_pre) >"$tmp/worker-pre.log" 2>&1 || fail "ExecStartPre failed: $(cat "$tmp/worker-pre.log")"
	# shellcheck disable=SC2086
	as_unit $serve_cmd >"$tmp/serve.out" 2>"$tmp/serve.log" &
	serve_pid=$!
	# shellcheck disable=SC2086
	as_unit $worker_cmd 2>"$tmp/worker.log" &
	worker_pid=$!
	for _ in $(seq 50); do
		url=$(sed -n 's|.*\(http://[^ /]*\)/.*|\1|p' "$tmp/serve.out" | head -1)
		[ -n "$url" ] && break
		sleep 0.2
	done
	[ -n "$url" ] || fail "the service did not start: $(cat "$tmp/serve.log")"
	[ "$(stat -c %U "$work/db/jobs.sqlite")" = "$user" ] || fail "the store is not the judge user's"
}
start_judge
api() { curl -sf -H "Authorization: Bearer $1" "$url$2"; }
# A value of the JSON on stdin: field 0 id is .[0].id.
field() { python3 -c 'import json, sys; v = json.load(sys.stdin)
for k in sys.argv[1:]: v = v[int(k) if isinstance(v, list) else k]
print(v)' "$@"; }
[ "$(api "$teacher" /api/me | field organiser)" = True ] || fail "the organiser's token is not one"

# 5. What the students get: the game's page and the kit; Ada uploads with it.
[ "$(api "$ada" /api/games/dominator | field limits cpu_ms)" = 1000 ] ||
	fail "/api/games/dominator does not show the limits in force"
mkdir "$tmp/ada"
curl -sf "$url/kits/dominator.tar.gz" | tar xzf - -C "$tmp/ada" || fail "the student kit does not download"
kit=$tmp/ada/dominator-kit
sed 's/PLAYER_NAME(Demo)/PLAYER_NAME(Ada)/' "$kit/AIDemo.c" > "$tmp/ada/AIAda.c"
grep -q 'PLAYER_NAME(Ada)' "$tmp/ada/AIAda.c" || fail "the kit has no Demo to start from"
"$kit/scripts/upload" "$tmp/ada/AIAda.c" --server "$url" --token "$ada" >"$tmp/upload.log" 2>&1 ||
	fail "scripts/upload failed: $(cat "$tmp/upload.log")"
id=$(api "$ada" '/api/submissions?mine=1' | field 0 id)
[ -n "$id" ] || fail "Ada's upload is not among her submissions"
state=
for _ in $(seq 120); do
	state=$(api "$ada" "/api/submissions/$id" | field state)
	case $state in qualified|not_qualified|compile_failed) break ;; esac
	sleep 1
done
# Demo may lose to the qualifying opponent: what counts is that it was judged.
case $state in qualified|not_qualified) ;; *)
	fail "Ada's upload was not judged (state '$state'): $(tail -5 "$tmp/worker.log")" ;; esac

# 6. A backup while both run, then 7. an upgrade, then a backup again.
as_judge judge store backup backup-1.sqlite
[ "$(stat -c %a "$work/backup-1.sqlite")" = 600 ] || fail "the backup is readable by others"
stop_judge
! pgrep -u "$user" -f "$prefix/bin/" >/dev/null ||
	fail "the service or the worker did not stop: $(pgrep -a -u "$user" -f "$prefix/bin/")"
make -C "$tmp/judge-src" -s -j2 install PREFIX="$prefix" >"$tmp/make.log" 2>&1 ||
	fail "make install (the upgrade) failed: $(tail -5 "$tmp/make.log")"
start_judge
[ "$(api "$ada" "/api/submissions/$id" | field state)" = "$state" ] ||
	fail "Ada's submission is gone after the upgrade"
as_judge judge store backup backup-2.sqlite

rows() { sqlite3 "$work/$1" "SELECT 'submission', id, state FROM submissions WHERE state <> 'superseded'
	UNION ALL SELECT 'match', id, game FROM matches ORDER BY 1, 2"; }
rows backup-1.sqlite > "$tmp/before"
rows backup-2.sqlite > "$tmp/after"
grep -q '^match|' "$tmp/before" || fail "the first backup holds no match"
missing=$(comm -23 "$tmp/before" "$tmp/after")
[ -z "$missing" ] || fail "lost over the upgrade: $missing"
echo "quickstart test: installed, judged an upload through the service, backed up, upgraded," \
	"backed up again: $(grep -c '^match|' "$tmp/before") matches, none lost"
