#pragma once
#include <string>

#include "certificate.hpp"

namespace permbb::audit {

// Reads and checks the form of a certificate: its layout, jobs in range and each at most
// once per subproblem, a schedule that is a permutation, the fingerprint of the times. A
// file that is not a certificate, or a malformed one, throws InputError (`file:line: what`).
Certificate read_certificate(const std::string& path);

// The instance fingerprint of the solver's files, written out again here (FNV-1a over jobs,
// machines and the times in machine-major order, each as 4 little-endian bytes).
std::uint64_t fingerprint_of(const Certificate& certificate);

}  // namespace permbb::audit
