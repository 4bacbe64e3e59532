#!/bin/sh
# Installs the Debian packages the judge builds, tests and runs with.
# Idempotent: does nothing when every package is already there. Run as root
# (or with sudo) on Debian 12; on other systems install the same libraries.
set -eu

packages="gcc make pkg-config libc6-dev libseccomp-dev libsqlite3-dev
libjansson-dev libcurl4-openssl-dev libssl-dev zlib1g-dev libcriterion-dev
sqlite3 clang libclang-rt-14-dev python3 python3-pycparser chromium postgresql
libpq-dev libmicrohttpd-dev"

missing=""
for p in $packages; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing Debian packages:$missing" >&2
	echo "deps: run this script as root (sudo $0) to install them" >&2
	exit 1
fi
echo "deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
