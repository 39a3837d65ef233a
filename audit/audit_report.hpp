#pragma once
// What `permbb audit` prints: a refuted certificate in one line (the first check that failed
// and where), a certificate that holds as one line per check and the claim with the sample's
// probability statement (an audit whose time limit stopped the sample says so, and how many
// draws the re-explored part holds); or, with --json, every check's figures as one JSON
// object, its verdict "holds", "refuted" or "incomplete".
#include <string>

#include "audit_checks.hpp"
#include "certificate.hpp"

namespace permbb::audit {

std::string refutation_line(const AuditResult& result);
std::string summary_text(const Certificate& certificate, const AuditResult& result);
std::string result_json(const Certificate& certificate, const AuditResult& result);

}  // namespace permbb::audit
