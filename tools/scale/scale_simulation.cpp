#include "scale_simulation.hpp"

#include <algorithm>
#include <cmath>
#include <queue>
#include <stdexcept>
#include <variant>

#include "checkpoint_cost.hpp"
#include "coordinator.hpp"

namespace permbb::scale {
namespace {

using cluster::Encoded;

std::size_t intervals_in(const cluster::ToCoordinator& message) {
  if (const auto* w = std::get_if<cluster::WorkReport>(&message)) return w->intervals.size();
  if (const auto* f = std::get_if<cluster::Farewell>(&message)) return f->intervals.size();
  return 0;
}

std::size_t intervals_in(const cluster::ToWorker& message) {
  if (const auto* a = std::get_if<cluster::WorkAssignment>(&message)) return a->intervals.size();
  return 0;
}

// One event of the virtual clock: a worker stops exploring to report, or a message arrives.
struct Event {
  enum Kind { kRunEnd, kAtCoordinator, kAtWorker };
  double time;
  std::uint64_t order;  // ties keep the order of scheduling
  Kind kind;
  int worker;
  Encoded message;
  std::uint64_t run = 0;  // kRunEnd: which run of the worker it ends (a later one replaces it)
};

struct Later {
  bool operator()(const Event& a, const Event& b) const {
    return a.time != b.time ? a.time > b.time : a.order > b.order;
  }
};

// A worker explores in runs: from when it gets work until its next report is due (a
// checkpoint, a request, no work left). It looks at its mailbox only between slices, so a
// request ends the run at the next slice boundary; the exploring is done when the run ends.
struct WorkerState {
  double last_checkpoint = 0;
  double explored_seconds = 0;
  bool checkpoint_asked = false;
  bool exploring = false;
  double run_start = 0;
  double run_end = 0;
  std::uint64_t run = 0;
};

class Simulation {
 public:
  Simulation(const WorkModel& model, const SimulationSettings& settings)
      : model_(model),
        settings_(settings),
        coordinator_(
            model.jobs(), settings.workers,
            cluster::CoordinatorState{
                cluster::initial_decomposition(model.jobs(), settings.workers), Schedule{}, {}}),
        workers_(static_cast<std::size_t>(settings.workers), VirtualWorker(model, settings.worker)),
        states_(static_cast<std::size_t>(settings.workers)) {}

  SimulationResult run() {
    for (int w = 0; w < settings_.workers; ++w) send_report(w, 0);  // each asks for work
    while (!events_.empty()) {
      Event event = events_.top();
      events_.pop();
      dispatch(event);
    }
    return result();
  }

 private:
  void schedule(double time, Event::Kind kind, int worker, Encoded message = {},
                std::uint64_t run = 0) {
    events_.push({time, next_order_++, kind, worker, std::move(message), run});
  }

  double transfer_seconds(const Encoded& message, std::size_t intervals) {
    const double scaled = scaled_bytes(message, intervals);
    bytes_ += scaled;
    ++messages_;
    return settings_.network.latency_seconds + scaled / settings_.network.bytes_per_second;
  }

  double scaled_bytes(const Encoded& message, std::size_t intervals) const {
    const double factor = intervals > 0 ? settings_.service.intervals_per_piece : 1.0;
    return static_cast<double>(message.bytes.size()) * factor;
  }

  void dispatch(Event& event) {
    switch (event.kind) {
      case Event::kRunEnd:
        return on_run_end(event.time, event.worker, event.run);
      case Event::kAtCoordinator:
        return on_coordinator(event.time, event.worker, event.message);
      case Event::kAtWorker:
        return on_worker(event.time, event.worker, event.message);
    }
  }

  void send(double now, int worker, const cluster::ToCoordinator& message) {
    Encoded encoded = cluster::encode_for_coordinator(message);
    const double arrival = now + transfer_seconds(encoded, intervals_in(message));
    schedule(arrival, Event::kAtCoordinator, worker, std::move(encoded));
  }

  void send_report(int worker, double now) {
    states_[worker].checkpoint_asked = false;
    states_[worker].last_checkpoint = now;
    send(now, worker, workers_[worker].report());
  }

  // The first slice boundary of the current run at or after `time`.
  double slice_boundary(const WorkerState& state, double time) const {
    const double slice = settings_.worker.slice_seconds;
    const double slices = std::ceil((time - state.run_start) / slice - 1e-9);
    return state.run_start + std::max(1.0, slices) * slice;
  }

  void start_run(int worker, double now) {
    WorkerState& state = states_[worker];
    state.exploring = true;
    state.run_start = now;
    const double due =
        slice_boundary(state, state.last_checkpoint + settings_.worker.checkpoint_seconds);
    const double out_of_work = now + workers_[worker].seconds_to_finish();
    state.run_end = std::min(due, out_of_work);
    schedule(state.run_end, Event::kRunEnd, worker, {}, ++state.run);
  }

  void on_run_end(double now, int worker, std::uint64_t run) {
    WorkerState& state = states_[worker];
    if (run != state.run || !state.exploring) return;  // replaced by an earlier end
    state.exploring = false;
    state.explored_seconds += workers_[worker].explore(now - state.run_start);
    const bool due = now - state.last_checkpoint >= settings_.worker.checkpoint_seconds - 1e-9;
    if (!workers_[worker].has_work() || state.checkpoint_asked || due) {
      send_report(worker, now);  // no exploring until the reply: the report is its state
    } else {
      start_run(worker, now);
    }
  }

  // A checkpoint request ends the run at the next slice boundary (when it ends later).
  void ask_checkpoint(int worker, double now) {
    WorkerState& state = states_[worker];
    state.checkpoint_asked = true;
    if (!state.exploring) return;
    const double boundary = slice_boundary(state, now);
    if (boundary < state.run_end) {
      state.run_end = boundary;
      schedule(boundary, Event::kRunEnd, worker, {}, ++state.run);
    }
  }

  // Rank 0 serves messages one at a time, in the order they arrive.
  void on_coordinator(double now, int worker, const Encoded& encoded) {
    cluster::ToCoordinator message =
        cluster::decode_from_worker(static_cast<int>(encoded.tag), encoded.bytes);
    std::size_t intervals = intervals_in(message);
    const std::vector<cluster::Outgoing> replies = coordinator_.handle(worker, std::move(message));
    struct Reply {
      int worker;
      Encoded encoded;
      std::size_t intervals;
    };
    std::vector<Reply> out;
    for (const cluster::Outgoing& reply : replies) {
      intervals += intervals_in(reply.message);
      out.push_back(
          {reply.worker, cluster::encode_for_worker(reply.message), intervals_in(reply.message)});
    }
    const ServiceModel& s = settings_.service;
    const double service =
        s.cpu_scale * (s.fixed + s.per_interval * s.intervals_per_piece * intervals);
    const double done = std::max(now, coordinator_free_) + service;
    coordinator_free_ = done;
    busy_ += service;
    for (Reply& reply : out) {
      const double arrival = done + transfer_seconds(reply.encoded, reply.intervals);
      schedule(arrival, Event::kAtWorker, reply.worker, std::move(reply.encoded));
    }
    if (coordinator_.finished()) end_ = done;
  }

  void on_worker(double now, int worker, const Encoded& encoded) {
    const cluster::ToWorker message =
        cluster::decode_from_coordinator(static_cast<int>(encoded.tag), encoded.bytes);
    if (std::holds_alternative<cluster::CheckpointRequest>(message)) {
      ask_checkpoint(worker, now);
    } else if (std::holds_alternative<cluster::StopOrder>(message)) {
      send(now, worker, workers_[worker].farewell());
    } else {
      // WORK: a new or modified unit; BEST: nothing changed, go on with the unit.
      if (const auto* work = std::get_if<cluster::WorkAssignment>(&message)) {
        workers_[worker].assign(work->unit_id, work->intervals);
      }
      if (workers_[worker].has_work()) {
        start_run(worker, now);
      } else {
        send_report(worker, now);
      }
    }
  }

  SimulationResult result() const {
    SimulationResult r;
    r.workers = settings_.workers;
    r.wall_seconds = end_;
    r.model_nodes = model_.total_nodes();
    r.nodes = coordinator_.stats().decomposed;
    r.ideal_seconds =
        static_cast<double>(r.nodes) / (settings_.workers * settings_.worker.nodes_per_second);
    r.efficiency = end_ > 0 ? r.ideal_seconds / end_ : 0;
    r.coordinator_busy = end_ > 0 ? busy_ / end_ : 0;
    r.messages = messages_;
    r.bytes = bytes_;
    r.splits = coordinator_.stats().splits;
    r.coverage_holds = coordinator_.coverage_holds() && coordinator_.all_work_done();
    double idle_sum = 0;
    for (const WorkerState& state : states_) {
      const double idle = end_ - state.explored_seconds;
      idle_sum += idle;
      r.max_idle_seconds = std::max(r.max_idle_seconds, idle);
    }
    r.mean_idle_seconds = idle_sum / settings_.workers;
    return r;
  }

  const WorkModel& model_;
  SimulationSettings settings_;
  cluster::Coordinator coordinator_;
  std::vector<VirtualWorker> workers_;
  std::vector<WorkerState> states_;
  std::priority_queue<Event, std::vector<Event>, Later> events_;
  std::uint64_t next_order_ = 0;
  double coordinator_free_ = 0;
  double busy_ = 0;
  double end_ = 0;
  double bytes_ = 0;
  std::uint64_t messages_ = 0;
};

}  // namespace

ServiceModel calibrate_service(int jobs, int intervals, double seconds) {
  constexpr int kFew = 16;
  const double few = measure_checkpoint_cost(jobs, kFew, seconds / 2).seconds_per_checkpoint();
  const double many =
      measure_checkpoint_cost(jobs, intervals, seconds / 2).seconds_per_checkpoint();
  // A checkpoint carries its intervals in and about as many back in the reply.
  ServiceModel service;
  service.per_interval = std::max(0.0, (many - few) / (2.0 * (intervals - kFew)));
  service.fixed = std::max(0.0, few - 2.0 * kFew * service.per_interval);
  return service;
}

SimulationResult simulate(const WorkModel& model, const SimulationSettings& settings) {
  if (settings.workers < 1) throw std::invalid_argument("scale simulation: no workers");
  return Simulation(model, settings).run();
}

}  // namespace permbb::scale
