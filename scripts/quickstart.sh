#!/usr/bin/env bash
# Sets permbb up (scripts/setup.sh, building the permbb executable alone) and solves
# Taillard's ta017 (20 jobs x 10 machines) from scratch: NEH gives the first incumbent, the
# branch-and-bound proves the optimum (1484).
set -euo pipefail
if [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
  echo "Usage: scripts/quickstart.sh   (installs, builds, solves ta017 and prints the result)"
  exit 0
fi
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Only the solver: the tests and their own kernels are built by scripts/run-tests.sh.
"$root/scripts/setup.sh" --target permbb
"$root/build/permbb" solve ta017 --progress 2
