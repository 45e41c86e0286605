#!/usr/bin/env bash
# Headless Chromium and its driver for `make docs-test`, from Debian's packages: the browser test
# never downloads a browser of its own. Installs them when missing (needs root, as CI has).
set -euo pipefail
if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then
    exit 0
fi
if [ "$(id -u)" != 0 ]; then
    echo "make docs-test needs Debian's chromium and chromium-driver:" >&2
    echo "  sudo apt-get install chromium chromium-driver" >&2
    exit 2
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium chromium-driver >/dev/null
command -v chromium && command -v chromedriver
