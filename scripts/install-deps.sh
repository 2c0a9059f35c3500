#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Install the Debian packages listed in scripts/deps/*.txt that are not installed yet.
# Idempotent: an installed package is never installed again; nothing to do = no apt calls.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
want=$(cat "$here"/deps/*.txt | sed 's/#.*//' | tr -s ' \t' '\n' | grep -v '^$' | sort -u)
missing=""
for p in $want; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
		missing="$missing $p"
	fi
done
if [ -z "$missing" ]; then
	echo "install-deps: all packages present"
	exit 0
fi
echo "install-deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing
