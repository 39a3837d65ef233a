#include "multicore_engine.hpp"

#include <algorithm>
#include <random>

#include "cpu_cores.hpp"
#include "factoradic.hpp"
#include "factoradic_mpz.hpp"
#include "thread_start.hpp"

namespace permbb {
namespace {

// An owner explores in chunks of steps, looking at the pause flag and at idle threads in
// between; a thief waits at most one chunk for a victim's lock. A step's cost ranges from
// 0.2 µs (LB1, 20 jobs) to a second (LB2 on 800 x 60: pairs x jobs per child), so the chunk
// length adapts to take about kChunkTarget: short enough for prompt pauses (a SIGTERM's
// checkpoint) and steals, long enough that locking costs nothing.
constexpr std::uint64_t kMaxChunkSteps = 4096;
constexpr auto kChunkTarget = std::chrono::microseconds(1000);

std::uint64_t next_chunk_steps(std::uint64_t steps, std::chrono::steady_clock::duration took) {
  if (took > 2 * kChunkTarget) return std::max<std::uint64_t>(1, steps / 2);
  if (took < kChunkTarget / 2) return std::min(kMaxChunkSteps, steps * 2);
  return steps;
}
// An idle thread retries stealing at least this often even without a wake-up.
constexpr auto kIdleRetry = std::chrono::milliseconds(2);

// The minimum stolen length as factoradic digits. By default k! leaves with k = n-5 clamped
// to [2, 8]: 8! as in the 2022 paper (§3.4) for large n, small enough that tiny test
// instances still balance. k stays below n: digit n-1-k must exist (1 or 2 jobs: k = n-1).
std::vector<int> min_steal_digits(int n, double min_leaves) {
  std::vector<int> digits(n, 0);
  if (min_leaves > 0) {
    mpz_class value(min_leaves);
    if (value > factorial(n)) value = factorial(n);
    from_mpz(value, n, digits.data());
    return digits;
  }
  const int k = std::clamp(n - 5, std::min(2, n - 1), 8);
  digits[n - 1 - k] = 1;  // digit n-1-k weighs k!
  return digits;
}

std::unique_ptr<JohnsonTables> johnson_for(const Instance& instance, BoundKind bound) {
  if (!uses_lb2(bound)) return nullptr;
  return std::make_unique<JohnsonTables>(instance, machine_pairs_for(bound));
}

}  // namespace

MulticoreEngine::MulticoreEngine(const Instance& instance, const SearchSettings& settings,
                                 Incumbent& incumbent, const MulticoreOptions& options)
    : n_(instance.jobs()),
      tables_(instance),
      johnson_(johnson_for(instance, settings.bound)),
      min_steal_(min_steal_digits(n_, options.min_steal_leaves)),
      policy_(options.policy),
      cut_(options.cut) {
  const int threads = options.threads > 0 ? options.threads : cores_available();
  for (int i = 0; i < threads; ++i) {
    slots_.push_back(std::make_unique<Slot>(tables_, johnson_.get(), settings, incumbent));
    if (cut_) slots_.back()->explorer.record_cut(*cut_);
  }
  start_threads(
      threads_, threads, "CPU explorer", [this](int i) { thread_main(i); },
      [this] {
        std::lock_guard<std::mutex> lock(mutex_);
        shutdown_ = true;
        work_cv_.notify_all();
      });
}

MulticoreEngine::~MulticoreEngine() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    shutdown_ = true;
  }
  work_cv_.notify_all();
  for (auto& t : threads_) t.join();
}

// A thread sleeps between phases; a phase (one explore() call) runs until the pause.
void MulticoreEngine::thread_main(int id) {
  std::uint64_t seen_phase = 0;
  while (true) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      work_cv_.wait(lock, [&] { return shutdown_ || phase_ != seen_phase; });
      if (shutdown_) return;
      seen_phase = phase_;
    }
    try {
      explore_until_paused(id);
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!failure_) failure_ = std::current_exception();
      pause_.store(true);
      work_cv_.notify_all();
    }
    std::lock_guard<std::mutex> lock(mutex_);
    ++parked_;
    control_cv_.notify_all();
  }
}

void MulticoreEngine::explore_until_paused(int id) {
  Slot& slot = *slots_[id];
  while (!pause_.load(std::memory_order_acquire)) {
    if (slot.has_work.load(std::memory_order_relaxed)) {
      explore_chunk(slot);
    } else if (!acquire_work(id) && !wait_while_idle()) {
      break;
    }
  }
  settle(slot);
}

// The nodes left before the cap (cap_nodes), or the most a chunk takes when there is none.
std::uint64_t MulticoreEngine::nodes_before_cap() const {
  const std::uint64_t cap = node_cap_.load(std::memory_order_relaxed);
  if (cap == 0) return kMaxChunkSteps;
  std::uint64_t done = 0;
  for (const auto& slot : slots_) done += slot->decomposed.load(std::memory_order_relaxed);
  return cap > done ? cap - done : 0;
}

bool MulticoreEngine::explore_chunk(Slot& slot) {
  // A step decomposes at most one node: a chunk no longer than the nodes left before the cap
  // passes it by at most a chunk per thread.
  const std::uint64_t before_cap = nodes_before_cap();
  if (before_cap == 0) {
    request_stop();
    return false;
  }
  const auto start = std::chrono::steady_clock::now();
  {
    std::lock_guard<std::mutex> lock(slot.mutex);
    slot.explorer.run(std::min(slot.chunk_steps, before_cap));
    publish(slot);
  }
  slot.chunk_steps = next_chunk_steps(slot.chunk_steps, std::chrono::steady_clock::now() - start);
  // The owner would relock at once and win the mutex back from a woken thief almost every
  // time: a thief waited 1 s for its first steal on ta021 with LB2 (chunks of milliseconds).
  // Waiters go first.
  while (slot.waiting.load(std::memory_order_acquire) > 0) std::this_thread::yield();
  if (idle_hint_.load(std::memory_order_relaxed) > 0) work_cv_.notify_one();
  return slot.has_work.load(std::memory_order_relaxed);
}

// Statistics and the victim hints, refreshed by whoever holds the slot's lock.
void MulticoreEngine::publish(Slot& slot) {
  const IvmExplorer& e = slot.explorer;
  slot.has_work.store(!e.exhausted(), std::memory_order_relaxed);
  const double left = e.exhausted() ? 0.0
                                    : factoradic::fraction_of_space(e.end(), n_) -
                                          factoradic::fraction_of_space(e.position(), n_);
  slot.remaining_fraction.store(left, std::memory_order_relaxed);
  slot.decomposed.store(e.committed_counters().decomposed, std::memory_order_relaxed);
  slot.leaves.store(e.counters().leaves, std::memory_order_relaxed);
}

// A pause must come promptly at any size: a settle stops short after about one chunk's
// time (a dive through thousands of levels takes a minute). The dive then goes on at the
// next phase; remaining() and stats() meanwhile describe its last clean point.
void MulticoreEngine::settle(Slot& slot) {
  std::lock_guard<std::mutex> lock(slot.mutex);
  if (slot.has_work.load(std::memory_order_relaxed)) slot.explorer.settle(slot.chunk_steps);
  publish(slot);
}

bool MulticoreEngine::acquire_work(int id) { return take_pending(*slots_[id]) || steal_into(id); }

bool MulticoreEngine::take_pending(Slot& slot) {
  std::vector<int> interval;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (pending_.empty()) return false;
    interval = std::move(pending_.front());
    pending_.pop_front();
  }
  std::lock_guard<std::mutex> lock(slot.mutex);
  slot.explorer.start(interval.data(), interval.data() + n_);
  publish(slot);
  return true;
}

// Victims in the order the policy prefers them (docs/performance.md).
bool MulticoreEngine::steal_into(int thief) {
  const int t = static_cast<int>(slots_.size());
  int first = thief + 1;
  if (policy_ == StealPolicy::kRandom) {
    thread_local std::minstd_rand rng(12345u + static_cast<unsigned>(thief));
    first = static_cast<int>(rng() % static_cast<unsigned>(t));
  } else if (policy_ == StealPolicy::kLargest) {
    int best = -1;
    double largest = 0;
    for (int v = 0; v < t; ++v) {
      const double left = slots_[v]->remaining_fraction.load(std::memory_order_relaxed);
      if (v != thief && slots_[v]->has_work.load(std::memory_order_relaxed) && left > largest) {
        best = v;
        largest = left;
      }
    }
    if (best >= 0 && try_steal(*slots_[best], *slots_[thief])) return true;
  }
  for (int i = 0; i < t; ++i) {
    const int v = (first + i) % t;
    if (v == thief || !slots_[v]->has_work.load(std::memory_order_relaxed)) continue;
    if (try_steal(*slots_[v], *slots_[thief])) return true;
  }
  return false;
}

// Locks a slot whose owner may be exploring; explore_chunk lets such waiters in first.
std::unique_lock<std::mutex> MulticoreEngine::lock_from_outside(Slot& slot) {
  slot.waiting.fetch_add(1, std::memory_order_acq_rel);
  std::unique_lock<std::mutex> lock(slot.mutex);
  slot.waiting.fetch_sub(1, std::memory_order_acq_rel);
  return lock;
}

// The thief takes the right half [cut, end) of the victim's remaining interval; the victim
// keeps [position, cut). Intervals shorter than the minimum are left alone.
bool MulticoreEngine::try_steal(Slot& victim, Slot& thief) {
  std::vector<int> cut(n_);
  std::vector<int> end(n_);
  {
    const auto lock = lock_from_outside(victim);
    IvmExplorer& e = victim.explorer;
    if (!victim.has_work.load(std::memory_order_relaxed) ||
        !e.steal_point(min_steal_.data(), cut.data())) {
      publish(victim);
      return false;
    }
    std::copy_n(e.end(), n_, end.begin());
    e.set_end(cut.data());
    publish(victim);
  }
  steals_.fetch_add(1, std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(thief.mutex);
  thief.explorer.start(cut.data(), end.data());
  publish(thief);
  return true;
}

// An idle thread sleeps until woken (a busy thread saw it idle, or the pause) or for
// kIdleRetry, then retries. Returns false when the phase is over: every thread is idle at
// once (the work is exhausted) or the engine pauses.
bool MulticoreEngine::wait_while_idle() {
  std::unique_lock<std::mutex> lock(mutex_);
  if (!pending_.empty()) return true;
  const int threads = static_cast<int>(slots_.size());
  idle_hint_.store(++idle_, std::memory_order_relaxed);
  if (idle_ == threads) {
    all_idle_ = true;
    control_cv_.notify_all();
    work_cv_.notify_all();
  }
  if (!all_idle_ && !pause_.load()) work_cv_.wait_for(lock, kIdleRetry);
  if (all_idle_ || pause_.load()) return false;
  idle_hint_.store(--idle_, std::memory_order_relaxed);
  return true;
}

bool MulticoreEngine::all_done_locked() const {
  if (!pending_.empty()) return false;
  for (const auto& slot : slots_) {
    if (slot->has_work.load(std::memory_order_relaxed)) return false;
  }
  return true;
}

void MulticoreEngine::set_work(const std::vector<Interval>& intervals) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (failure_) std::rethrow_exception(failure_);
  pending_.clear();
  // The explorers drop their intervals too: a slot is re-published from its explorer (at
  // the next pause, say, before its thread took new work), and a stale interval would come
  // back beside the new ones.
  for (auto& slot : slots_) {
    std::lock_guard<std::mutex> slot_lock(slot->mutex);
    slot->explorer.clear();
    publish(*slot);
  }
  int given = 0;
  for (const Interval& interval : intervals) {
    if (interval.empty()) continue;
    // CutFaults::drop_interval (tests only): an interval lost on its way, as between ranks.
    if (++given == 2 && cut_ && cut_->faults.drop_interval) continue;
    std::vector<int> digits(2 * n_);
    from_mpz(interval.begin, n_, digits.data());
    from_mpz(interval.end, n_, digits.data() + n_);
    pending_.push_back(std::move(digits));
  }
}

bool MulticoreEngine::explore(std::chrono::duration<double> budget) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (failure_) std::rethrow_exception(failure_);
  if (all_done_locked()) return true;
  const auto deadline =
      std::chrono::steady_clock::now() +
      std::chrono::duration_cast<std::chrono::steady_clock::duration>(budget);
  pause_.store(false);
  all_idle_ = false;
  stop_requested_ = false;
  idle_ = 0;
  idle_hint_.store(0);
  parked_ = 0;
  ++phase_;
  work_cv_.notify_all();
  control_cv_.wait_until(lock, deadline, [&] { return all_idle_ || stop_requested_ || failure_; });
  pause_.store(true);
  work_cv_.notify_all();
  control_cv_.wait(lock, [&] { return parked_ == static_cast<int>(slots_.size()); });
  if (failure_) std::rethrow_exception(failure_);
  return all_done_locked();
}

std::vector<Interval> MulticoreEngine::remaining() {
  std::vector<Interval> out;
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& slot : slots_) {
    const auto slot_lock = lock_from_outside(*slot);
    if (!slot->has_work.load(std::memory_order_relaxed)) continue;
    out.push_back({to_mpz(slot->explorer.position(), n_), to_mpz(slot->explorer.end(), n_)});
  }
  for (const auto& digits : pending_) {
    out.push_back({to_mpz(digits.data(), n_), to_mpz(digits.data() + n_, n_)});
  }
  std::sort(out.begin(), out.end(),
            [](const Interval& a, const Interval& b) { return a.begin < b.begin; });
  return out;
}

void MulticoreEngine::request_stop() {
  std::lock_guard<std::mutex> lock(mutex_);
  stop_requested_ = true;
  control_cv_.notify_all();
}

// The slots with work, up to `count` of them spread evenly over the busy ones.
std::vector<PromotedSubproblem> MulticoreEngine::sample_subproblems(int count) {
  std::vector<PromotedSubproblem> out;
  if (count <= 0) return out;
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<Slot*> busy;
  for (auto& slot : slots_) {
    if (slot->has_work.load(std::memory_order_relaxed)) busy.push_back(slot.get());
  }
  const int total = static_cast<int>(busy.size());
  const int take = std::min(count, total);
  for (int i = 0; i < take; ++i) {
    Slot& slot = *busy[static_cast<std::size_t>(i) * total / take];
    const auto slot_lock = lock_from_outside(slot);
    // Paused slots are settled, so normalize() (ivm::advance) leaves the position as it is;
    // it guarantees the pointed cell is a node of its row before decoding.
    if (!slot.explorer.normalize()) {
      publish(slot);
      continue;
    }
    out.push_back(slot.explorer.current_subproblem());
  }
  return out;
}

bool MulticoreEngine::collect_cut(SearchCut& into) {
  if (!cut_) return false;
  for (auto& slot : slots_) {
    const auto slot_lock = lock_from_outside(*slot);
    into.add(slot->explorer.take_cut_records());
    publish(*slot);  // under CutFaults::count_twice the explorer's counts grew
  }
  return true;
}

EngineStats MulticoreEngine::stats() const {
  EngineStats s;
  s.explorers = static_cast<int>(slots_.size());
  for (const auto& slot : slots_) {
    s.nodes.decomposed += slot->decomposed.load(std::memory_order_relaxed);
    s.nodes.leaves += slot->leaves.load(std::memory_order_relaxed);
    s.active_explorers += slot->has_work.load(std::memory_order_relaxed) ? 1 : 0;
  }
  s.steals = steals_.load(std::memory_order_relaxed);
  return s;
}

}  // namespace permbb
