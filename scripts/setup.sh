#!/usr/bin/env bash
# Installs the Debian packages permbb needs (only those missing) and builds it in Release
# into ./build. Safe to run again: installed packages and an up-to-date build are kept.
# Usage: scripts/setup.sh [--build-dir DIR] [--no-gpu] [--tsan | --asan | --fuzz] [--target T]...
set -euo pipefail

usage() {
  cat <<'USAGE'
Usage: scripts/setup.sh [--build-dir DIR] [--no-gpu] [--tsan | --asan | --fuzz] [--target T]...
Installs missing build dependencies (Debian packages, needs root) and builds permbb.
  --build-dir DIR  build folder, absolute or relative to the current folder, as with
                   cmake -B (default: build in the repository); its configure log is
                   written beside it as DIR.configure.log
  --no-gpu         leave the CUDA explorer out even where nvcc is found (default: built
                   whenever /usr/local/cuda/bin/nvcc or an nvcc on PATH exists)
  --target T       build only target T (and what it needs); may be repeated
  --tsan           build with ThreadSanitizer (for the threaded tests)
  --asan           build with AddressSanitizer and UndefinedBehaviorSanitizer
  --fuzz           build only the libFuzzer targets of the decoders, with clang (tests/fuzz)
USAGE
}

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=$root/build
tsan=OFF
fuzz=OFF
asan=OFF
gpu=AUTO
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build-dir) build_dir=$2; shift 2 ;;
    --tsan) tsan=ON; shift ;;
    --fuzz) fuzz=ON; shift ;;
    --asan) asan=ON; shift ;;
    --no-gpu) gpu=OFF; shift ;;
    --target) targets+=(--target "$2"); shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "setup.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
  esac
done
builds=0
for flag in "$tsan" "$asan" "$fuzz"; do
  if [ "$flag" = ON ]; then builds=$((builds + 1)); fi
done
if [ "$builds" -gt 1 ]; then
  echo "setup.sh: --tsan, --asan and --fuzz are separate builds; give one of them" >&2
  exit 2
fi

packages=(build-essential cmake ninja-build pkg-config libgmp-dev libopenmpi-dev openmpi-bin
  libspdlog-dev libfmt-dev nlohmann-json3-dev libcli11-dev libgtest-dev googletest
  python3 python3-matplotlib tcl lua5.4 shellcheck slurmctld slurmd slurm-client munge)
# libFuzzer comes with clang's runtime libraries.
if [ "$fuzz" = ON ]; then packages+=(clang libclang-rt-14-dev); fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup.sh: installing ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup.sh: installing packages needs root (run as root or with sudo)" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The sanitizer builds only run CPU tests; leave the CUDA code out of them.
if [ "$tsan" = ON ] || [ "$asan" = ON ] || [ "$fuzz" = ON ]; then gpu=OFF; fi
if [ "$fuzz" = ON ]; then
  # libFuzzer needs clang; only the fuzz targets and the libraries they link are built.
  export CC=clang CXX=clang++
  if [ ${#targets[@]} -eq 0 ]; then targets=(--target permbb_fuzz); fi
fi
# The build folder as cmake -B takes it: an absolute path as is, a relative one from the
# current folder (the default, build, is the repository's). The configure log goes beside it.
case "$build_dir" in
  /*) ;;
  *) build_dir="$PWD/$build_dir" ;;
esac
build_dir=${build_dir%/}
mkdir -p "$(dirname "$build_dir")"
configure_log="$build_dir.configure.log"
cmake -S "$root" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPERMBB_TSAN=$tsan \
  -DPERMBB_FUZZ=$fuzz -DPERMBB_ASAN=$asan -DPERMBB_GPU=$gpu \
  >"$configure_log" 2>&1 || { cat "$configure_log" >&2; exit 1; }
cmake --build "$build_dir" -j "$(nproc)" "${targets[@]}"
