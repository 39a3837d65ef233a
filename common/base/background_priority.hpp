#pragma once
// Background priority for helper threads (the heuristic threads beside an explorer): the
// thread that feeds a GPU must never wait for a core behind them. Nodes/s fell 12x with a
// heuristic thread per core on a bound rank, and four solves on one four-GPU host, each with a
// heuristic thread per core, kept 92 % of one alone at nice 10 (docs/scale.md, "Four GPUs").
// Under SCHED_IDLE any thread of normal priority preempts them at once; where that policy is
// refused, the lowest nice value. Without the right to change either (a restricted container),
// the thread runs as it is. Linux applies both per thread.
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace permbb {

inline constexpr int kBackgroundNice = 19;

// Puts the calling thread in the background; returns whether SCHED_IDLE was granted.
inline bool run_this_thread_in_background() {
  const sched_param idle{};
  if (::sched_setscheduler(0, SCHED_IDLE, &idle) == 0) return true;  // 0: this thread
  const auto thread_id = static_cast<id_t>(::syscall(SYS_gettid));
  (void)::setpriority(PRIO_PROCESS, thread_id, kBackgroundNice);
  return false;
}

}  // namespace permbb
