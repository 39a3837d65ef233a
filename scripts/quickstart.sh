#!/usr/bin/env bash
# Sets permbb up (scripts/setup.sh) and solves Taillard's ta017 (20 jobs x 10 machines) from
# scratch: NEH gives the first incumbent, the branch-and-bound proves the optimum (1484).
set -euo pipefail
if [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
  echo "Usage: scripts/quickstart.sh   (installs, builds, solves ta017 and prints the result)"
  exit 0
fi
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh"
"$root/build/permbb" solve ta017 --progress 2
