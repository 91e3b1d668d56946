#!/usr/bin/env bash
# The browser test drives Debian's Chromium (playwright's own download is not used). Installs it
# when it is missing and this user may (root, or sudo without a password); otherwise says how.
set -euo pipefail
chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$chromium" ] && exit 0
if [ -n "${CHROMIUM_PATH:-}" ]; then
  echo "CHROMIUM_PATH=$CHROMIUM_PATH is not an executable." >&2
  exit 1
fi
if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
  as_root=(sudo -n)
else
  echo "The browser test needs Chromium: run  sudo apt-get update && sudo apt-get install -y chromium  (or set CHROMIUM_PATH)." >&2
  exit 1
fi
echo "Installing Chromium (Debian package) for the browser test"
"${as_root[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq chromium >/dev/null
