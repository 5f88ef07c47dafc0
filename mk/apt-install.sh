#!/bin/sh
# apt-install.sh PACKAGE ...
# Installs the Debian packages when we run as root with apt-get available and
# INSTALL_TOOLS is not "no" (updating the package lists once if the first try
# fails). Exits 0 when they were installed, 1 when they could not be.
[ "${INSTALL_TOOLS:-yes}" != no ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 || exit 1
echo "installing missing tools: $*" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q --no-install-recommends "$@" >&2 ||
	{ apt-get update -q >&2 && apt-get install -y -q --no-install-recommends "$@" >&2; }
