#!/usr/bin/env bash
# Sets permbb up (scripts/setup.sh) and runs the whole test suite with ctest. Every test has
# its own timeout, so a hang fails instead of blocking.
set -euo pipefail
if [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
  echo "Usage: scripts/run-tests.sh   (installs, builds, runs every test)"
  exit 0
fi
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh"
ctest --test-dir "$root/build" -j "$(nproc)" --output-on-failure --timeout 900
