#include "audit_report.hpp"

namespace permbb::audit {
namespace {

std::string claim_text(const Certificate& c) {
  const std::string bound = c.upper_bound == kNoBound ? "inf" : std::to_string(c.upper_bound);
  return c.optimal ? "optimal makespan " + bound : "no schedule below " + bound;
}

std::string probability_text(const AuditResult& r) {
  if (r.timed_out && r.sample.complete) {
    return "the time limit stopped check 4 after " + std::to_string(r.sample_done) + " of the " +
           std::to_string(r.sample.subproblems.size()) +
           " explored subproblems, taken in the certificate's order: no probability bound";
  }
  if (r.sample.complete) return "every explored subproblem was re-explored";
  const std::uint64_t draws = r.timed_out ? r.sample.draws_covered(r.sample_done) : r.sample.draws;
  std::string text = "a fault in a share p of the explored nodes would be missed with "
                     "probability at most (1 - p)^" + std::to_string(draws);
  if (r.timed_out) {
    text += " (the time limit stopped check 4 after " + std::to_string(draws) + " of " +
            std::to_string(r.sample.draws) + " draws)";
  }
  return text;
}

std::string status_text(const CheckOutcome& check, const AuditResult& r) {
  if (!check.passed) return "REFUTED";
  return check.number == 4 && r.timed_out ? "incomplete" : "holds";
}

std::string verdict_text(const AuditResult& r) {
  if (!r.holds()) return "refuted";
  return r.timed_out ? "incomplete" : "holds";
}

std::string figures_text(const CheckOutcome& check) {
  std::string out;
  for (const Figure& f : check.figures) out += (out.empty() ? "" : ", ") + f.name + " " + f.value;
  return out;
}

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (c < 0x20 || c >= 0x80) {
      static const char* hex = "0123456789abcdef";
      out += "\\u00";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

}  // namespace

std::string refutation_line(const AuditResult& r) {
  const CheckOutcome* failed = r.first_failure();
  if (failed == nullptr) return "";
  return "refuted: check " + std::to_string(failed->number) + " (" + failed->name + "): " +
         failed->failure;
}

std::string summary_text(const Certificate& c, const AuditResult& r) {
  std::string out;
  for (const CheckOutcome& check : r.checks) {
    out += "check " + std::to_string(check.number) + " (" + check.name + "): " +
           status_text(check, r) + ": " + figures_text(check) + "\n";
  }
  out += std::string(r.timed_out ? "certificate not refuted, audit incomplete: "
                                  : "certificate holds: ") +
         claim_text(c) + " (" + c.bound + ", " + c.branching +
         "); " + probability_text(r) + " (seed " + std::to_string(r.seed) + ")\n";
  return out;
}

std::string result_json(const Certificate& c, const AuditResult& r) {
  std::string out = "{\"file\": " + json_string(c.file) + ", \"verdict\": " +
                    json_string(verdict_text(r));
  out += ", \"claim\": " + json_string(claim_text(c));
  out += ", \"refuted_by\": " + (r.holds() ? std::string("null") : json_string(refutation_line(r)));
  out += ", \"checks\": [";
  for (std::size_t i = 0; i < r.checks.size(); ++i) {
    const CheckOutcome& check = r.checks[i];
    out += std::string(i ? ", " : "") + "{\"check\": " + std::to_string(check.number) +
           ", \"name\": " + json_string(check.name) +
           ", \"holds\": " + (check.passed ? "true" : "false");
    if (!check.passed) out += ", \"failure\": " + json_string(check.failure);
    for (const Figure& f : check.figures) {
      out += ", " + json_string(f.name) + ": " + (f.is_text ? json_string(f.value) : f.value);
    }
    out += "}";
  }
  out += "], \"sample\": {\"k\": " + std::to_string(r.sample_size) +
         ", \"seed\": " + std::to_string(r.seed) +
         ", \"complete\": " + (r.sample.complete ? "true" : "false") +
         ", \"stopped_by_time_limit\": " + (r.timed_out ? "true" : "false") +
         ", \"subproblems\": " + std::to_string(r.sample.subproblems.size()) +
         ", \"probability\": " + json_string(probability_text(r)) + "}}\n";
  return out;
}

}  // namespace permbb::audit
