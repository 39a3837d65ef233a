#!/usr/bin/env bash
# Sets permbb up (scripts/setup.sh, building the permbb executable alone) and solves
# Taillard's ta017 (20 jobs x 10 machines) from scratch: NEH gives the first incumbent, the
# branch-and-bound proves the optimum (1484). --no-gpu leaves the CUDA explorer out even where
# nvcc is found, as setup.sh's option of that name does.
set -euo pipefail
usage="Usage: scripts/quickstart.sh [--no-gpu]  (installs, builds, solves ta017, prints the result)"
setup_options=(--target permbb)
for argument in "$@"; do
  case $argument in
    -h|--help) echo "$usage"; exit 0 ;;
    --no-gpu) setup_options+=(--no-gpu) ;;
    *) echo "quickstart.sh: unknown argument '$argument'" >&2; echo "$usage" >&2; exit 2 ;;
  esac
done
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Only the solver: the tests and their own kernels are built by scripts/run-tests.sh.
"$root/scripts/setup.sh" "${setup_options[@]}"
"$root/build/permbb" solve ta017 --progress 2
