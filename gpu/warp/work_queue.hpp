#pragma once
// The persistent explorer's work sharing on the device (docs/gpu.md, "The persistent
// explorer"): a team whose IVM runs dry asks for work; a team that sees a request halves its
// interval and queues the right half; a hungry team takes a queued interval. Written for one
// thread (lane 0 of a team), host and device code, so the host tests run these very functions.
//
// Counters (WorkQueueView), reset before every launch:
//   work      (holders << 32) | queued: teams holding an interval, and intervals queued. Zero
//             means nothing is left anywhere: no team can queue more, none is queued.
//   requests  requests not yet claimed by a donor.
//   tail/head tickets of pushes and takes; slot = ticket mod capacity (a power of two).
//   ready     per slot: ticket + 1 once the slot holds its interval, 0 once taken.
// With H hungry teams, requests + queued + (claimed, not yet queued) = H at all times: each
// hungry team adds one request, a donor turns one into a queued interval, a hungry team takes
// one. So a hungry team that leaves either cancels a request or, when none is left to cancel,
// takes the interval that one of them became (it is on its way: its donor is running). No team
// ever waits for a team that is not running, so the protocol needs no co-resident grid.
#include "host_device.hpp"

namespace permbb::gpu {

// Each word on a cache line of its own: hungry teams poll `work`, every holder reads
// `requests` at each look, donors and takers count tickets; on one line the polls delayed
// the donors' atomics.
struct WorkQueueCounters {
  alignas(128) unsigned long long work = 0;
  alignas(128) int requests = 0;
  alignas(128) unsigned tail = 0;
  alignas(128) unsigned head = 0;
};

struct WorkQueueView {
  WorkQueueCounters* counters = nullptr;
  unsigned* ready = nullptr;  // capacity
  int* digits = nullptr;      // capacity x 2n: begin, then end
  int capacity = 0;           // a power of two, at least the teams of a launch
  int n = 0;
};

inline constexpr unsigned long long kOneHolder = 1ULL << 32;

PERMBB_HD unsigned long long queue_load(const unsigned long long* at) {
  return *static_cast<const volatile unsigned long long*>(at);
}

PERMBB_HD int queue_load(const int* at) {
  return *static_cast<const volatile int*>(at);
}

PERMBB_HD unsigned queue_load(const unsigned* at) {
  return *static_cast<const volatile unsigned*>(at);
}

PERMBB_HD void queue_fence() {
#if defined(__CUDA_ARCH__)
  __threadfence();
#endif
}

template <class T>
PERMBB_HD T queue_add(T* at, T value) {
#if defined(__CUDA_ARCH__)
  return atomicAdd(at, value);
#else
  const T old = *at;
  *at = old + value;
  return old;
#endif
}

template <class T>
PERMBB_HD T queue_cas(T* at, T compare, T value) {
#if defined(__CUDA_ARCH__)
  return atomicCAS(at, compare, value);
#else
  const T old = *at;
  if (old == compare) *at = value;
  return old;
#endif
}

// Nothing is held or queued any more: every team may leave.
PERMBB_HD bool queue_search_over(const WorkQueueView& q) {
  return queue_load(&q.counters->work) == 0;
}

PERMBB_HD bool queue_has_requests(const WorkQueueView& q) {
  return queue_load(&q.counters->requests) > 0;
}

// Before a launch, once per IVM with an interval (exploring or initializing): its team holds
// work.
PERMBB_HD void queue_add_holder(const WorkQueueView& q) {
  queue_add(&q.counters->work, kOneHolder);
}

// A team without work asks for some.
PERMBB_HD void queue_ask(const WorkQueueView& q) {
  queue_add(&q.counters->requests, 1);
}

// A holder holds nothing any more.
PERMBB_HD void queue_drop_holder(const WorkQueueView& q) {
  queue_add(&q.counters->work, ~kOneHolder + 1);  // minus one holder
}

// A holder ran dry: it asks for work and holds nothing any more.
PERMBB_HD void queue_go_hungry(const WorkQueueView& q) {
  queue_ask(q);
  queue_drop_holder(q);
}

// Takes one request away (a donor serving it, or a hungry team cancelling its own): true for
// the caller that got one.
PERMBB_HD bool queue_claim_request(const WorkQueueView& q) {
  int seen = queue_load(&q.counters->requests);
  while (seen > 0) {
    const int before = queue_cas(&q.counters->requests, seen, seen - 1);
    if (before == seen) return true;
    seen = before;
  }
  return false;
}

// A donor that claimed a request queues [begin, end) (n digits each).
PERMBB_HD void queue_push(const WorkQueueView& q, const int* begin, const int* end) {
  const unsigned ticket = queue_add(&q.counters->tail, 1u);
  const unsigned slot = ticket & static_cast<unsigned>(q.capacity - 1);
  while (queue_load(q.ready + slot) != 0) {
  }  // its last interval is still being copied out
  volatile int* out = q.digits + 2LL * q.n * slot;
  for (int d = 0; d < q.n; ++d) {
    out[d] = begin[d];
    out[q.n + d] = end[d];
  }
  queue_fence();
  *static_cast<volatile unsigned*>(q.ready + slot) = ticket + 1;
  queue_fence();
  queue_add(&q.counters->work, 1ULL);  // queued + 1
}

// A hungry team takes a queued interval into begin / end, and holds it: false when none is
// queued.
PERMBB_HD bool queue_take(const WorkQueueView& q, int* begin, int* end) {
  unsigned long long seen = queue_load(&q.counters->work);
  while ((seen & 0xffffffffULL) != 0) {
    const unsigned long long before = queue_cas(&q.counters->work, seen, seen - 1 + kOneHolder);
    if (before != seen) {
      seen = before;
      continue;
    }
    const unsigned ticket = queue_add(&q.counters->head, 1u);
    const unsigned slot = ticket & static_cast<unsigned>(q.capacity - 1);
    while (queue_load(q.ready + slot) != ticket + 1) {
    }  // its donor is writing it
    queue_fence();
    const volatile int* in = q.digits + 2LL * q.n * slot;
    for (int d = 0; d < q.n; ++d) {
      begin[d] = in[d];
      end[d] = in[q.n + d];
    }
    queue_fence();
    *static_cast<volatile unsigned*>(q.ready + slot) = 0;
    return true;
  }
  return false;
}

// A hungry team leaves (its launch is over): it cancels a request, or takes the interval one
// became. True when it took one (into begin / end).
PERMBB_HD bool queue_leave(const WorkQueueView& q, int* begin, int* end) {
  while (true) {
    if (queue_claim_request(q)) return false;
    if (queue_take(q, begin, end)) return true;
  }
}

// The queue's capacity for `teams` teams: the smallest power of two at least that.
PERMBB_HD int queue_capacity(int teams) {
  int c = 1;
  while (c < teams) c *= 2;
  return c;
}

}  // namespace permbb::gpu
