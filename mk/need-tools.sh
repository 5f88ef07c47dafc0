#!/bin/sh
# need-tools.sh CMD=PACKAGE ...
# Makes sure every command CMD is on PATH. Missing ones are installed from
# their Debian PACKAGE by mk/apt-install.sh (as root with apt-get, unless
# INSTALL_TOOLS is "no"); otherwise we stop with one line naming the
# packages to install.
missing_pkgs=
missing_cmds=
for pair in "$@"; do
	cmd=${pair%%=*}
	pkg=${pair#*=}
	command -v "$cmd" >/dev/null 2>&1 && continue
	missing_cmds="$missing_cmds $cmd"
	missing_pkgs="$missing_pkgs $pkg"
done
[ -z "$missing_pkgs" ] && exit 0

if "$(dirname "$0")/apt-install.sh" $missing_pkgs; then
	ok=yes
	for c in $missing_cmds; do command -v "$c" >/dev/null 2>&1 || ok=no; done
	[ $ok = yes ] && exit 0
fi
echo "error: missing tools:$missing_cmds; install the Debian packages:$missing_pkgs (e.g. sudo apt-get install$missing_pkgs)" >&2
exit 1
