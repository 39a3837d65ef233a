#include "wait_clock.hpp"

#include <variant>

namespace permbb::cluster {

WaitClock::WaitClock(int workers)
    : waits_(static_cast<std::size_t>(workers)),
      idle_since_(static_cast<std::size_t>(workers), -1),
      give_sent_(static_cast<std::size_t>(workers), -1) {}

void WaitClock::received(int worker, const ToCoordinator& message, double t) {
  const auto w = static_cast<std::size_t>(worker);
  if (w >= waits_.size()) return;
  // Any message but BEST answers a pending GiveRequest (Coordinator::settle_give).
  if (give_sent_[w] >= 0 && !std::holds_alternative<BestMessage>(message)) {
    ++waits_[w].gives;
    waits_[w].give_seconds += t - give_sent_[w];
    give_sent_[w] = -1;
  }
  const auto* report = std::get_if<WorkReport>(&message);
  if (report != nullptr && report->intervals.empty() && idle_since_[w] < 0) idle_since_[w] = t;
}

void WaitClock::sent(const std::vector<Outgoing>& messages, double t) {
  for (const Outgoing& out : messages) {
    const auto w = static_cast<std::size_t>(out.worker);
    if (w >= waits_.size()) continue;
    if (std::holds_alternative<GiveRequest>(out.message)) give_sent_[w] = t;
    const auto* work = std::get_if<WorkAssignment>(&out.message);
    if (work == nullptr || work->intervals.empty() || idle_since_[w] < 0) continue;
    ++waits_[w].idle_spells;
    waits_[w].idle_seconds += t - idle_since_[w];
    idle_since_[w] = -1;
  }
}

}  // namespace permbb::cluster
