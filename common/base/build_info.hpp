#pragma once
// What this binary was built from, generated at build time (cmake/BuildInfo.cmake): printed by
// `permbb --version`, written into every JSON result and every checkpoint, so that a result
// found later names the build that produced it.

namespace permbb {

// The release and the commit: "0.1.0-g26f0ada1b2c3" (a git checkout, "-dirty" with
// uncommitted changes), or "0.1.0" alone for a source tree without git information.
const char* build_version();

// The CMake build type ("Release", "Debug", ...).
const char* build_type();

// The GPU code compiled: "CUDA sm_90" (the architectures) or "no GPU code".
const char* build_gpu_code();

}  // namespace permbb
