#!/bin/sh
# apt-install.sh PACKAGE ...
# Installs the Debian packages when we run as root with apt-get available and
# INSTALL_TOOLS is not "no" (updating the package lists once if the first try
# fails). Exits 0 when they were installed, 1 when they could not be.
# Installs run one at a time (flock): under make -j2 the book's tools and the
# calculator's WebAssembly toolchain are asked for at once, and a second
# apt-get would find dpkg's lock taken and give up.
[ "${INSTALL_TOOLS:-yes}" != no ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 || exit 1
echo "installing missing tools: $*" >&2
export DEBIAN_FRONTEND=noninteractive
if command -v flock >/dev/null 2>&1; then
	exec 9>"${TMPDIR:-/tmp}/apt-install.lock" && flock 9
fi
apt-get install -y -q -o DPkg::Lock::Timeout=300 --no-install-recommends "$@" >&2 ||
	{ apt-get update -q >&2 && apt-get install -y -q -o DPkg::Lock::Timeout=300 --no-install-recommends "$@" >&2; }
