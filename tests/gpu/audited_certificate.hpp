#pragma once
// The certificate of a finished GPU search (tests/gpu/test_gpu_*certificate.cpp), written as
// `permbb solve --certificate` writes it and audited whole by the independent auditor
// (audit/), every explored subproblem re-explored.
#include <cstdio>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <algorithm>

#include "audit_checks.hpp"
#include "certificate_file.hpp"
#include "certificate_reader.hpp"
#include "search_cut.hpp"

namespace permbb::testing {

struct AuditedCertificate {
  audit::AuditResult audit;
  audit::Certificate certificate;
};

// `schedule`: the best one found (empty when none beat `upper_bound`); `run`: the search's
// counts; `cut`: its records.
inline AuditedCertificate audit_search(const Instance& instance, const SearchSettings& settings,
                                       const std::vector<int>& schedule, Time upper_bound,
                                       const NodeCounters& run, const SearchCut& cut) {
  solve::CertificateContent content;
  content.instance = &instance;
  content.settings = settings;
  content.schedule = schedule;
  content.optimal = !schedule.empty();
  content.upper_bound = upper_bound;
  content.run = run;
  content.cut = cut.partition();
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = std::string(test->test_suite_name()) + "_" + test->name();
  std::replace(name.begin(), name.end(), '/', '_');  // parameterised tests' names
  const std::string path = ::testing::TempDir() + "permbb_audited_" + name;
  solve::write_certificate(path, content);
  AuditedCertificate out;
  out.certificate = audit::read_certificate(path);
  out.audit = audit::audit_certificate(out.certificate, 1000000, 1);
  std::remove(path.c_str());
  return out;
}

inline std::string failure_of(const audit::AuditResult& result) {
  return result.holds() ? "" : result.first_failure()->failure;
}

// The audit holds in full, and the claim is `optimum` (optimal when the search started above
// it, else "none below").
inline void expect_holds_with_claim(const AuditedCertificate& c, Time optimum, Time start,
                                    const std::string& context) {
  EXPECT_TRUE(c.audit.holds()) << context << ": " << failure_of(c.audit);
  EXPECT_TRUE(c.audit.sample.complete) << context;
  EXPECT_EQ(c.certificate.upper_bound, optimum) << context;
  EXPECT_EQ(c.certificate.optimal, start > optimum) << context;
}

}  // namespace permbb::testing
