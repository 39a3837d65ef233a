// Writes the generated part of the seed corpus (tests/fuzz/corpus/<target>/): what the
// project's own encoders and generators produce, a few broken variants, and, for the
// factoradic target, fixed pseudo-random inputs. The instance files copied from tests/data
// and ../shared/data are not written here. Usage: fuzz_seed_writer CORPUS_DIR
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "checkpoint_file.hpp"
#include "checkpoint_samples.hpp"
#include "instance_generator.hpp"
#include "instance_source.hpp"
#include "knapsack_file.hpp"
#include "knapsack_generator.hpp"
#include "protocol.hpp"
#include "taillard.hpp"

namespace permbb {
namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<std::uint8_t>;

class SeedWriter {
 public:
  SeedWriter(fs::path corpus, std::string target) : folder_(std::move(corpus) / target) {
    fs::create_directories(folder_);
  }

  void write(const std::string& name, const Bytes& bytes) const {
    std::ofstream out(folder_ / name, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
  }
  void write(const std::string& name, const std::string& text) const {
    write(name, Bytes(text.begin(), text.end()));
  }

 private:
  fs::path folder_;
};

Bytes prefixed(std::uint8_t first, const Bytes& rest) {
  Bytes bytes{first};
  bytes.insert(bytes.end(), rest.begin(), rest.end());
  return bytes;
}

void write_flowshop(const fs::path& corpus) {
  const SeedWriter plain(corpus, "flowshop_plain");
  plain.write("ta001.txt", format_plain(taillard::generate(1)));
  plain.write("two_by_two_crlf.txt", std::string("2 2\r\n1 2\r\n3 4\r\n"));
  plain.write("bad_overflow.txt", std::string("1 1\n99999999999999999999\n"));
  const SeedWriter vrf(corpus, "flowshop_vrf");
  vrf.write("rotated_pairs_2x3.txt", std::string("2 3\n0 5 1 6 2 7\n2 1 0 2 1 3\n"));
}

void write_knapsack(const fs::path& corpus) {
  namespace ks = knapsack;
  const SeedWriter out(corpus, "knapsack");
  out.write("strongly_correlated_12.knap",
            ks::format_knapsack_file(
                ks::generate_instance({ks::InstanceClass::kStronglyCorrelated, 12, 100, 1})));
  out.write(
      "subset_sum_5.knap",
      ks::format_knapsack_file(ks::generate_instance({ks::InstanceClass::kSubsetSum, 5, 1000, 2})));
  out.write("comments.knap", std::string("# two items\n\n2 10   # n c\n3 4\n5 6 # last\n"));
  out.write("bad_surplus.knap", std::string("1 5\n1 1\n2 2\n"));
  out.write("bad_total.knap", std::string("2 0\n9223372036854775807 1\n1 1\n"));
  out.write("bad_zero_weight.knap", std::string("1 5\n1 0\n"));
}

void write_pcmax(const fs::path& corpus) {
  const SeedWriter out(corpus, "pcmax");
  out.write("uniform_20_3.pcmax", pcmax::format_instance(pcmax::generate_instance(
                                      pcmax::parse_generator_spec("uniform,20,3,1,100,7"))));
  out.write("pareto_10_4.pcmax", pcmax::format_instance(pcmax::generate_instance(
                                     pcmax::parse_generator_spec("pareto,10,4,1,1000,1.5,3"))));
  out.write("bad_truncated.pcmax", std::string("3 2\n5 6\n"));
  out.write("bad_time.pcmax", std::string("2 1\n100000000001 1\n"));
}

Interval iv(long begin, long end) {
  return Interval{mpz_class(begin), mpz_class(end)};
}

// The tests' small checkpoint, with the statistics and time the seeds were first written with.
GlobalCheckpoint small_checkpoint() {
  GlobalCheckpoint c = testing::small_checkpoint(0);
  c.statistics = CheckpointStatistics{1234, 567, 0.5, 1.5, 0, 2, 11, 3};
  c.written_at = 1700000000;
  return c;
}

// A 25-job checkpoint: bounds above 2^64, so that GMP integers take several words.
GlobalCheckpoint wide_checkpoint() {
  GlobalCheckpoint c;
  c.instance_name = "wide";
  c.jobs = 25;
  c.machines = 2;
  c.settings = SearchSettings{BoundKind::kLb1, BranchingRule::kMinMin};
  c.initial_ub = kInfiniteTime;
  c.initial_ub_origin = "given";
  const mpz_class end("15511210043330985984000000");  // 25!
  c.active = {WorkUnit(1, {Interval{mpz_class("18446744073709551616"), end}})};
  return c;
}

void write_checkpoint(const fs::path& corpus) {
  const SeedWriter out(corpus, "checkpoint");
  const GlobalCheckpoint small = small_checkpoint();
  const GlobalCheckpoint wide = wide_checkpoint();
  const Bytes small_file = encode_checkpoint(small, small.written_at);
  const Bytes wide_file = encode_checkpoint(wide, wide.written_at);
  out.write("small.ckpt", small_file);
  out.write("wide.ckpt", wide_file);
  // Payload seeds: a zero byte, then the payload (the target adds the header).
  const auto payload = [](const Bytes& file) {
    return prefixed(0, Bytes(file.begin() + kCheckpointHeaderSize, file.end()));
  };
  out.write("small.payload", payload(small_file));
  out.write("wide.payload", payload(wide_file));
  out.write("bad_truncated.ckpt", Bytes(small_file.begin(), small_file.begin() + 40));
  Bytes corrupted = small_file;
  corrupted.back() ^= 1;
  out.write("bad_crc.ckpt", corrupted);
}

void write_protocol(const fs::path& corpus) {
  using namespace cluster;
  const SeedWriter out(corpus, "protocol");
  // The target's first byte: bit 0 says who receives (1: a worker), the rest the tag.
  const auto to_coordinator = [&](const std::string& name, const ToCoordinator& m) {
    const Encoded e = encode_for_coordinator(m);
    out.write(name, prefixed(static_cast<std::uint8_t>(static_cast<int>(e.tag) << 1), e.bytes));
  };
  const auto to_worker = [&](const std::string& name, const ToWorker& m) {
    const Encoded e = encode_for_worker(m);
    out.write(name, prefixed(static_cast<std::uint8_t>(static_cast<int>(e.tag) << 1 | 1), e.bytes));
  };
  const std::vector<Interval> intervals = {iv(0, 10), iv(10, 11), iv(500, 720)};
  const Interval wide{mpz_class("18446744073709551616"), mpz_class("15511210043330985984000000")};
  to_coordinator("work_report", WorkReport{3, 1000, 20, 4, 377, intervals});
  to_coordinator("work_report_wide", WorkReport{1, 0, 0, 1, kInfiniteTime, {wide}});
  to_coordinator("best_candidate", BestMessage{Schedule{{2, 0, 1}, 377}});
  to_coordinator("farewell",
                 Farewell{3, 5, 1, Schedule{{1, 0}, 377}, intervals, WorkerTimes{}});
  to_worker("work_assignment", WorkAssignment{4, intervals, Schedule{{}, 400}});
  to_worker("best_reply", BestMessage{Schedule{{}, kInfiniteTime}});
  to_worker("stop_order", StopOrder{});
  to_worker("checkpoint_request", CheckpointRequest{});
  to_worker("give_request", GiveRequest{256});
  to_coordinator("handover", Handover{3, 377, mpz_class("18446744073709551617"), intervals});
  out.write("bad_unknown_tag", Bytes{6 << 1, 1});
}

void write_factoradic(const fs::path& corpus) {
  const SeedWriter out(corpus, "factoradic");
  std::mt19937 random(2022);
  for (int k = 0; k < 8; ++k) {
    Bytes bytes(64 << (k % 4));
    for (std::uint8_t& b : bytes) b = static_cast<std::uint8_t>(random());
    out.write("random_" + std::to_string(k), bytes);
  }
}

}  // namespace
}  // namespace permbb

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
    return 2;
  }
  const std::filesystem::path corpus = argv[1];
  permbb::write_flowshop(corpus);
  permbb::write_knapsack(corpus);
  permbb::write_pcmax(corpus);
  permbb::write_checkpoint(corpus);
  permbb::write_protocol(corpus);
  permbb::write_factoradic(corpus);
  return 0;
}
