// The P||Cmax DP on the GPU against the CPU (style.md: every kernel test compares the device
// result with a host reference on many inputs): whole tables, tables partitioned into blocks
// with a ring window (a small device memory limit forces it), the fallback when not even the
// window fits, several tables at once on concurrent streams, and the PTAS with the GPU and
// the quarter split against the CPU's sequential bisection.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "cpu_dp.hpp"
#include "device_buffer.hpp"
#include "device_level_buckets.hpp"
#include "dp_problem.hpp"
#include "gpu_devices.hpp"
#include "gpu_table_filler.hpp"
#include "input_error.hpp"
#include "instance_generator.hpp"
#include "level_buckets.hpp"
#include "pcmax/pcmax_test_support.hpp"
#include "ptas.hpp"

namespace permbb::pcmax {
namespace {

std::unique_ptr<DpProblem> random_problem(std::mt19937_64& rng, int classes,
                                          std::uint32_t max_count, std::uint32_t limit) {
  const auto space = testing::random_space(rng, classes, 9, max_count);
  std::vector<ClassCount> counts;
  for (std::size_t c = 0; c < space.units.size(); ++c) {
    counts.push_back(ClassCount{space.units[c], space.counts[c]});
  }
  return std::make_unique<DpProblem>(counts, space.capacity, limit, 1 << 22);
}

std::vector<std::uint32_t> entries_of(const DpTable& table) {
  std::vector<std::uint32_t> out(table.size());
  for (std::uint64_t i = 0; i < table.size(); ++i) out[i] = table.at(i);
  return out;
}

std::vector<std::uint32_t> cpu_table(const DpProblem& problem) {
  DpTable table(problem.shape.size(), problem.entry_bytes());
  fill_table_sequential(problem, table);
  return entries_of(table);
}

// Fills the problems as one batch (concurrent streams when there are several).
std::vector<FillReport> gpu_fill(const std::vector<const DpProblem*>& problems,
                                 std::vector<std::unique_ptr<DpTable>>& tables,
                                 const gpu::GpuFillerOptions& options) {
  const auto filler = gpu::make_gpu_table_filler(options);
  std::vector<DpWork> batch;
  tables.clear();
  for (const DpProblem* problem : problems) {
    tables.push_back(std::make_unique<DpTable>(problem->shape.size(), problem->entry_bytes()));
    batch.push_back(DpWork{problem, tables.back().get(), {}});
  }
  filler->fill(batch);
  std::vector<FillReport> reports;
  for (const auto& work : batch) reports.push_back(work.report);
  return reports;
}

class PcmaxGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(permbb::gpu::built_with_cuda());
    ASSERT_FALSE(permbb::gpu::list_devices().empty()) << "a device test needs a GPU";
  }
};

TEST_F(PcmaxGpu, WholeTablesEqualTheCpu) {
  std::mt19937_64 rng(41);
  for (int trial = 0; trial < 40; ++trial) {
    const std::uint32_t limit = trial % 5 == 0 ? 300 : 2 + static_cast<std::uint32_t>(rng() % 9);
    const auto problem = random_problem(rng, 2 + trial % 6, 3 + trial % 4, limit);
    std::vector<std::unique_ptr<DpTable>> tables;
    const auto reports = gpu_fill({problem.get()}, tables, {});
    EXPECT_EQ(reports[0].device, "gpu");
    EXPECT_EQ(reports[0].blocks, 1u);
    EXPECT_EQ(entries_of(*tables[0]), cpu_table(*problem))
        << "trial " << trial << ", " << problem->shape.size() << " entries";
  }
}

// The device's buckets against the host's counting sort: the same states at each level (the
// order inside a level is free on the device).
TEST_F(PcmaxGpu, DeviceLevelBucketsHoldTheHostsStatesAtEachLevel) {
  std::mt19937_64 rng(47);
  for (int trial = 0; trial < 30; ++trial) {
    const auto problem = random_problem(rng, 1 + trial % 7, 2 + trial % 6, 40);
    const TableShape& shape = problem->shape;
    const std::size_t dims = static_cast<std::size_t>(shape.dims());
    permbb::gpu::DeviceBuffer<std::uint32_t> extents(dims), units(dims);
    permbb::gpu::DeviceBuffer<std::uint64_t> strides(dims);
    extents.upload(shape.extents());
    units.upload(shape.units());
    strides.upload(shape.strides());
    const TableShapeView device_shape{shape.dims(), extents.data(), units.data(), strides.data(),
                                      shape.capacity()};
    const std::uint64_t size = shape.size();
    const std::uint64_t top = top_level(shape);
    for (const auto& [begin, end] : std::vector<std::pair<std::uint64_t, std::uint64_t>>{
             {0, size}, {size / 3, size - size / 4}, {size - 1, size}}) {
      permbb::gpu::DeviceBuffer<std::uint32_t> states(end - begin);
      permbb::gpu::DeviceBuffer<unsigned long long> counts(top + 1);
      const std::vector<std::uint64_t> level_begin = gpu::bucket_levels_on_device(
          device_shape, begin, end, top, states.data(), counts.data(), nullptr);
      const std::vector<std::uint32_t> device_states = states.download();
      const LevelBuckets host = build_level_buckets(shape, begin, end);
      ASSERT_EQ(level_begin.size(), top + 2);
      EXPECT_EQ(level_begin.back(), end - begin);
      for (std::uint64_t level = 0; level <= top; ++level) {
        std::vector<std::uint32_t> on_device(device_states.begin() + level_begin[level],
                                             device_states.begin() + level_begin[level + 1]);
        std::sort(on_device.begin(), on_device.end());
        std::vector<std::uint32_t> on_host;
        if (level >= host.first_level && level - host.first_level < host.level_begin.size() - 1) {
          const std::uint64_t l = level - host.first_level;
          on_host.assign(host.states.begin() + host.level_begin[l],
                         host.states.begin() + host.level_begin[l + 1]);
        }
        EXPECT_EQ(on_device, on_host) << "trial " << trial << " level " << level << " block ["
                                      << begin << ", " << end << ")";
      }
    }
  }
}

// One filler for a whole bisection keeps its device memory from round to round: rounds of
// changing sizes and budgets, each table equal to the CPU's.
TEST_F(PcmaxGpu, OneFillerAcrossRoundsOfChangingSizesEqualsTheCpu) {
  std::mt19937_64 rng(53);
  for (const std::uint64_t limit : {std::uint64_t{0}, std::uint64_t{1} << 14}) {
    gpu::GpuFillerOptions options;
    options.memory_limit_bytes = limit;
    const auto filler = gpu::make_gpu_table_filler(options);
    for (const std::size_t round_size : {3, 1, 2, 3, 1, 3}) {
      std::vector<std::unique_ptr<DpProblem>> problems;
      std::vector<std::unique_ptr<DpTable>> tables;
      std::vector<DpWork> batch;
      for (std::size_t i = 0; i < round_size; ++i) {
        problems.push_back(random_problem(rng, 2 + static_cast<int>(rng() % 6), 6, 9));
        tables.push_back(std::make_unique<DpTable>(problems.back()->shape.size(),
                                                   problems.back()->entry_bytes()));
        batch.push_back(DpWork{problems.back().get(), tables.back().get(), {}});
      }
      filler->fill(batch);
      for (std::size_t i = 0; i < round_size; ++i) {
        EXPECT_EQ(entries_of(*tables[i]), cpu_table(*problems[i]))
            << "limit " << limit << ", round of " << round_size << ", table " << i << " on "
            << batch[i].report.device;
      }
    }
  }
}

TEST_F(PcmaxGpu, PartitionedTablesEqualTheCpu) {
  std::mt19937_64 rng(43);
  int partitioned = 0;
  for (int trial = 0; trial < 12; ++trial) {
    const auto problem = random_problem(rng, 5 + trial % 3, 6, 12);
    const auto want = cpu_table(*problem);
    const std::uint64_t size = problem->shape.size();
    // Budgets from the whole table down to below the smallest ring: each fill equals the CPU.
    for (std::uint64_t budget = size * 6 + problem->configs.bytes() + 4096; budget > 1024;
         budget = budget * 3 / 4) {
      gpu::GpuFillerOptions options;
      options.memory_limit_bytes = budget;
      std::vector<std::unique_ptr<DpTable>> tables;
      const auto reports = gpu_fill({problem.get()}, tables, options);
      EXPECT_EQ(entries_of(*tables[0]), want) << "trial " << trial << " budget " << budget;
      if (reports[0].device == "gpu" && reports[0].window < size && reports[0].blocks > 2) {
        ++partitioned;
      }
      if (reports[0].device == "cpu-fallback") {
        EXPECT_FALSE(reports[0].note.empty());
        break;
      }
    }
  }
  EXPECT_GT(partitioned, 10) << "the small budgets must force ring windows with several blocks";
}

TEST_F(PcmaxGpu, NoFallbackMeansAnInputErrorSayingWhatWasNeeded) {
  std::mt19937_64 rng(47);
  const auto problem = random_problem(rng, 5, 8, 10);
  gpu::GpuFillerOptions options;
  options.memory_limit_bytes = 64;
  options.host_fallback = false;
  std::vector<std::unique_ptr<DpTable>> tables;
  try {
    gpu_fill({problem.get()}, tables, options);
    FAIL() << "64 bytes of device memory sufficed";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("device memory"), std::string::npos) << e.what();
  }
}

TEST_F(PcmaxGpu, ConcurrentTablesOnStreamsEqualTheCpu) {
  std::mt19937_64 rng(53);
  for (int trial = 0; trial < 6; ++trial) {
    std::vector<std::unique_ptr<DpProblem>> problems;
    std::vector<const DpProblem*> views;
    for (int i = 0; i < 3 + trial % 5; ++i) {
      problems.push_back(random_problem(rng, 3 + i % 5, 5, 3 + static_cast<std::uint32_t>(i)));
      views.push_back(problems.back().get());
    }
    gpu::GpuFillerOptions options;
    if (trial % 2) options.memory_limit_bytes = 200000;  // partitioned, side by side
    std::vector<std::unique_ptr<DpTable>> tables;
    const auto reports = gpu_fill(views, tables, options);
    for (std::size_t i = 0; i < problems.size(); ++i) {
      EXPECT_EQ(entries_of(*tables[i]), cpu_table(*problems[i])) << "trial " << trial << " #" << i;
    }
  }
}

TEST_F(PcmaxGpu, QuarterSplitOnTheGpuEndsLikeTheSequentialBisectionOnTheCpu) {
  for (const char* spec : {"uniform,30,6,1,100,1", "pareto,40,8,10,500,1.3,2",
                           "uniform,24,5,20,80,3", "uniform,60,12,1,1000,4"}) {
    const PcmaxInstance instance = generate_instance(parse_generator_spec(spec));
    CpuTableFiller cpu(1);
    PtasOptions sequential;
    sequential.epsilon = 0.3;
    sequential.split = 2;
    const PtasResult want = solve_pcmax(instance, sequential, cpu);
    for (const std::uint64_t device_memory : {std::uint64_t{0}, std::uint64_t{300000}}) {
      gpu::GpuFillerOptions options;
      options.memory_limit_bytes = device_memory;
      const auto gpu = gpu::make_gpu_table_filler(options);
      PtasOptions quarter = sequential;
      quarter.split = 4;
      const PtasResult got = solve_pcmax(instance, quarter, *gpu);
      EXPECT_EQ(got.final_target, want.final_target) << spec;
      EXPECT_EQ(got.schedule.machine_of_job, want.schedule.machine_of_job) << spec;
      EXPECT_LE(got.rounds, want.rounds) << spec;
      EXPECT_EQ(got.engine, "gpu");
      const Duration makespan =
          testing::checked_makespan(instance.times, instance.machines, got.schedule.machine_of_job);
      EXPECT_LT(got.k * makespan, (got.k + 1) * got.final_target) << spec;
    }
  }
}

}  // namespace
}  // namespace permbb::pcmax
