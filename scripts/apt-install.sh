#!/usr/bin/env bash
# Installs the Debian packages named (none: nothing to do) with apt-get,
# with sudo when not root; fails when apt-get is not available or the
# install fails. For the scripts that find a system package missing.
set -euo pipefail
[ $# -gt 0 ] || exit 0
if ! command -v apt-get >/dev/null; then
    echo "$* missing, and apt-get is not available: install them by hand." >&2
    exit 1
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "Installing $* with apt-get…" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
