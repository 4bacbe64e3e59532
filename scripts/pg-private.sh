# pg-private.sh - sourced: a private PostgreSQL 15 server for a script,
# in a folder of its own, listening only on a Unix socket there, trust
# authentication for its one role `judge`, fsync off (its data dies with
# it).  As root the server runs as the postgres user (initdb refuses
# root).  pg_private_start DIR sets pg_url (the database `judge`, made
# empty) and pg_dir; pg_private_stop stops it; pg_private_sql QUERY prints
# what psql answers.
pg_bin=${PG_BINDIR:-/usr/lib/postgresql/15/bin}
pg_as=()
[ "$(id -u)" = 0 ] && pg_as=(runuser -u postgres --)

pg_private_start() { # DIR (made if missing; its parent must be searchable)
	pg_dir=$1
	mkdir -p "$pg_dir"
	[ "$(id -u)" = 0 ] && chown postgres: "$pg_dir"
	"${pg_as[@]}" "$pg_bin/initdb" -D "$pg_dir/data" -U judge --auth=trust -E UTF8 --locale=C \
		--no-sync > "$pg_dir/setup.log" 2>&1 &&
	"${pg_as[@]}" "$pg_bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/server.log" -w -o \
		"-c listen_addresses='' -k $pg_dir -c fsync=off -c max_connections=60" start \
		>> "$pg_dir/setup.log" 2>&1 &&
	"$pg_bin/createdb" -h "$pg_dir" -U judge judge >> "$pg_dir/setup.log" 2>&1 || {
		echo "PostgreSQL did not start (see $pg_dir/setup.log and server.log)" >&2
		return 1
	}
	pg_url="postgresql://judge@/judge?host=$pg_dir"
}

pg_private_stop() {
	[ -n "${pg_dir:-}" ] && [ -d "$pg_dir/data" ] &&
		"${pg_as[@]}" "$pg_bin/pg_ctl" -D "$pg_dir/data" -m immediate -w stop > /dev/null 2>&1
	return 0
}

pg_private_sql() { psql -X -q -At -h "$pg_dir" -U judge -d judge -c "$1"; }
