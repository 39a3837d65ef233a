#include "insertion.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>

// The clones are chosen by an ifunc resolver, which runs before a sanitizer's runtime has
// started: sanitized builds (tests only) compile the one portable version.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define PERMBB_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__) || defined(PERMBB_SANITIZED)
#define PERMBB_VECTOR_CLONES
#else
#define PERMBB_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#endif

namespace permbb {

InsertionWorkspace::InsertionWorkspace(const Instance& instance) {
  const auto positions = static_cast<std::size_t>(instance.jobs());
  heads.resize(positions * instance.machines());
  tails.resize(positions * instance.machines());
  front.resize(positions);
  fit.resize(positions);
  spans.resize(positions);
}

namespace {

template <class Value>
void grow_to(std::vector<Value>& buffer, std::size_t size) {
  if (buffer.size() < size) buffer.resize(size);
}

// The recurrences below are chains of max-and-add, one cell after the other, and their
// latency is what a table costs. So they run kChains positions at once, each position's cell
// taken from its neighbour's in a register: that many chains in flight, skewed by one cell,
// instead of one whose every step waits for the previous position's store. The instance's
// sizes and times are read into locals: the stores into the table may alias an Instance's
// int fields as far as the compiler knows, which made it reload them for every cell.
// (Eight chains measured no faster than four: the registers run out.)
constexpr int kChains = 4;

// Heads of positions first..last of a table of `stride` positions per machine, each from the
// position before it: the job at position i is jobs[i - first].
void extend_heads(const Instance& instance, const int* jobs, Time* e, std::size_t stride,
                  int first, int last) {
  const int m = instance.machines();
  const auto n = static_cast<std::size_t>(instance.jobs());
  const Time* const times = instance.times().data();
  int i = first;
  for (; i + kChains - 1 <= last; i += kChains) {
    const Time* p[kChains];
    for (int c = 0; c < kChains; ++c) p[c] = times + jobs[i + c - first];
    Time* cell = e + i;
    Time done[kChains] = {};
    for (int j = 0; j < m; ++j, cell += stride) {
      const std::size_t at = static_cast<std::size_t>(j) * n;
      done[0] = std::max(cell[-1], done[0]) + p[0][at];
      for (int c = 1; c < kChains; ++c) done[c] = std::max(done[c - 1], done[c]) + p[c][at];
      for (int c = 0; c < kChains; ++c) cell[c] = done[c];
    }
  }
  for (; i <= last; ++i) {
    const Time* p = times + jobs[i - first];
    Time* cell = e + i;
    Time left = 0;
    for (int j = 0; j < m; ++j, p += n, cell += stride) {
      left = std::max(cell[-1], left) + *p;
      *cell = left;
    }
  }
}

// Tails of positions last..0, each from the position after it: the job after position i is
// jobs[i].
void extend_tails(const Instance& instance, const int* jobs, Time* q, std::size_t stride,
                  int last) {
  const int m = instance.machines();
  const auto n = static_cast<std::size_t>(instance.jobs());
  const Time* const times = instance.times().data();
  int i = last;
  for (; i - (kChains - 1) >= 0; i -= kChains) {
    const Time* p[kChains];
    for (int c = 0; c < kChains; ++c) p[c] = times + jobs[i - c];
    Time* cell = q + (m - 1) * stride + i;
    Time rest[kChains] = {};
    for (int j = m - 1; j >= 0; --j, cell -= stride) {
      const std::size_t at = static_cast<std::size_t>(j) * n;
      rest[0] = std::max(cell[1], rest[0]) + p[0][at];
      for (int c = 1; c < kChains; ++c) rest[c] = std::max(rest[c - 1], rest[c]) + p[c][at];
      for (int c = 0; c < kChains; ++c) cell[-c] = rest[c];
    }
  }
  for (; i >= 0; --i) {
    const Time* p = times + (m - 1) * n + jobs[i];
    Time* cell = q + (m - 1) * stride + i;
    Time right = 0;
    for (int j = m - 1; j >= 0; --j, p -= n, cell -= stride) {
      right = std::max(cell[1], right) + *p;
      *cell = right;
    }
  }
}

}  // namespace

// Taillard's acceleration (1990). For the partial schedule pi_1..pi_k:
//   head e[j][i]: earliest completion of pi_i on machine j, positions i = 0..k (0 is zero);
//   tail q[j][i]: least time from the start of pi_{i+1} on machine j to the end of the
//                 schedule, for the jobs pi_{i+1}..pi_k, positions i = 0..k (k is zero);
//   f[j][i]:      completion on machine j of the new job placed after pi_i,
//                 f[j][i] = max(f[j-1][i], e[j][i]) + p[j][job].
// Inserting the job at position i (after the first i jobs) gives makespan
// max_j f[j][i] + q[j][i]. The whole is O(k m) instead of O(k^2 m) for evaluating each
// position from scratch. Rows are per machine, so the loops over positions are contiguous.
void fill_heads_and_tails(const Instance& instance, const std::vector<int>& sequence,
                          InsertionWorkspace& workspace) {
  const int m = instance.machines();
  const int k = static_cast<int>(sequence.size());
  const auto stride = static_cast<std::size_t>(k + 1);
  grow_to(workspace.heads, stride * m);
  grow_to(workspace.tails, stride * m);
  Time* const e = workspace.heads.data();
  Time* const q = workspace.tails.data();
  for (int j = 0; j < m; ++j) {
    e[j * stride] = 0;
    q[j * stride + k] = 0;
  }
  extend_heads(instance, sequence.data(), e, stride, 1, k);
  extend_tails(instance, sequence.data(), q, stride, k - 1);
}

namespace {

// Picks among the positions whose span equals `least`.
int break_tie(const Time* span, const std::int64_t* fit, int positions, Time least,
              InsertionTies ties, std::uint64_t& state) {
  int chosen = -1;
  int seen = 0;
  for (int i = 0; i < positions; ++i) {
    if (span[i] != least) continue;
    if (ties == InsertionTies::kLeftmost) return i;
    if (ties == InsertionTies::kTightest) {
      if (chosen < 0 || fit[i] < fit[chosen]) chosen = i;
      continue;
    }
    // Reservoir sampling: the i-th tie replaces the choice with probability 1/i. xorshift64.
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    ++seen;
    if (state % static_cast<std::uint64_t>(seen) == 0) chosen = i;
  }
  return chosen;
}

// The best of `positions` insertion positions for `job`, from workspace.heads and
// workspace.tails (machines x positions, as fill_heads_and_tails leaves them). Compiled twice,
// the AVX2 clone chosen at load time where the CPU has it (8 lanes and a vector max instead
// of SSE2's 4 lanes with a compare-and-blend max): the binaries stay portable.
PERMBB_VECTOR_CLONES
Insertion evaluate_positions(const Instance& instance, int job, int positions,
                             InsertionWorkspace& workspace, InsertionTies ties) {
  const int m = instance.machines();
  grow_to(workspace.front, positions);
  grow_to(workspace.spans, positions);
  grow_to(workspace.fit, positions);
  Time* const f = workspace.front.data();
  Time* const span = workspace.spans.data();
  std::int64_t* const fit = workspace.fit.data();
  std::fill(f, f + positions, 0);
  std::fill(span, span + positions, 0);
  const bool tightest = ties == InsertionTies::kTightest;
  if (tightest) std::fill(fit, fit + positions, 0);
  // Machine by machine, all positions at once: independent lanes the compiler vectorizes.
  for (int j = 0; j < m; ++j) {
    const Time p = instance.time(j, job);
    const Time* const head = workspace.heads.data() + static_cast<std::size_t>(j) * positions;
    const Time* const tail = workspace.tails.data() + static_cast<std::size_t>(j) * positions;
    // The tightest rule's sum in the same pass over the positions: a second loop re-read
    // the rows (6 % more CPU time for the iterated greedy's defaults on ta081).
    if (tightest) {
      for (int i = 0; i < positions; ++i) {
        f[i] = std::max(f[i], head[i]) + p;
        const Time through = f[i] + tail[i];
        span[i] = std::max(span[i], through);
        fit[i] += through;
      }
    } else {
      for (int i = 0; i < positions; ++i) {
        f[i] = std::max(f[i], head[i]) + p;
        span[i] = std::max(span[i], f[i] + tail[i]);
      }
    }
  }
  const Time least = *std::min_element(span, span + positions);
  return {break_tie(span, fit, positions, least, ties, workspace.tie_state), least};
}

// The heads and tails of a sequence of `count` jobs (count + 1 positions per machine) into
// `target`, from `source`'s (source_stride positions per machine) for a sequence one job
// longer or shorter that has the same first `position` jobs and, after the job it has more or
// fewer, the same jobs: the heads up to `position` and the tails from `tails_from` on are
// copied (the tails one position further or nearer in `source`), the others extended.
// `later_jobs`: the sequence's jobs from `position` on; `jobs`: its jobs from the first.
void derive_heads_and_tails(const Instance& instance, int count, int position, int tails_from,
                            const int* later_jobs, const int* jobs,
                            const InsertionWorkspace& source, std::size_t source_stride,
                            InsertionWorkspace& target) {
  const int m = instance.machines();
  const auto stride = static_cast<std::size_t>(count + 1);
  const auto shifted_from = static_cast<std::size_t>(tails_from) + source_stride - stride;
  grow_to(target.heads, stride * m);
  grow_to(target.tails, stride * m);
  Time* const e = target.heads.data();
  Time* const q = target.tails.data();
  for (int j = 0; j < m; ++j) {
    const Time* const heads = source.heads.data() + j * source_stride;
    const Time* const tails = source.tails.data() + j * source_stride;
    std::copy(heads, heads + position + 1, e + j * stride);
    std::copy(tails + shifted_from, tails + source_stride, q + j * stride + tails_from);
  }
  extend_heads(instance, later_jobs, e, stride, position + 1, count);
  extend_tails(instance, jobs, q, stride, tails_from - 1);
}

}  // namespace

Insertion best_insertion(const Instance& instance, const std::vector<int>& partial, int job,
                         InsertionWorkspace& workspace, InsertionTies ties) {
  fill_heads_and_tails(instance, partial, workspace);
  return evaluate_positions(instance, job, static_cast<int>(partial.size()) + 1, workspace, ties);
}

// The sequence without its job at `position` has k - 1 jobs and k positions. Its heads up to
// `position` are the whole sequence's; the later ones continue the recurrence. Its tails from
// `position` on are the whole sequence's one position further; the earlier ones continue the
// recurrence backwards.
Insertion best_reinsertion(const Instance& instance, const std::vector<int>& sequence,
                           int position, const InsertionWorkspace& whole,
                           InsertionWorkspace& workspace, InsertionTies ties) {
  const int k = static_cast<int>(sequence.size());
  derive_heads_and_tails(instance, k - 1, position, position, sequence.data() + position + 1,
                         sequence.data(), whole, static_cast<std::size_t>(k + 1), workspace);
  return evaluate_positions(instance, sequence[position], k, workspace, ties);
}

// `sequence` has k jobs, `without` k - 1 (k positions). The first `position` jobs are the same,
// and so are the jobs after the inserted one, one position further.
void fill_heads_and_tails_after_insertion(const Instance& instance,
                                          const std::vector<int>& sequence, int position,
                                          const InsertionWorkspace& without,
                                          InsertionWorkspace& whole) {
  const int k = static_cast<int>(sequence.size());
  derive_heads_and_tails(instance, k, position, position + 1, sequence.data() + position,
                         sequence.data(), without, static_cast<std::size_t>(k), whole);
}

}  // namespace permbb
