#include "scale_simulation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <stdexcept>
#include <variant>

#include "checkpoint_cost.hpp"
#include "coordinator.hpp"
#include "report_cadence.hpp"

namespace permbb::scale {
namespace {

using cluster::Encoded;

std::size_t intervals_in(const cluster::ToCoordinator& message) {
  if (const auto* w = std::get_if<cluster::WorkReport>(&message)) return w->intervals.size();
  if (const auto* f = std::get_if<cluster::Farewell>(&message)) return f->intervals.size();
  if (const auto* h = std::get_if<cluster::Handover>(&message)) return h->intervals.size();
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
  double real_intervals = 0;  // the intervals a real message would carry (kAtCoordinator)
  std::uint64_t run = 0;      // kRunEnd: which run of the worker it ends (a later one replaces it)
};

struct Later {
  bool operator()(const Event& a, const Event& b) const {
    return a.time != b.time ? a.time > b.time : a.order > b.order;
  }
};

// A worker explores in runs: from when it gets work until its next message is due (a
// checkpoint, a request, no work left). It looks at its mailbox only between slices, so a
// request ends the run at the next slice boundary; the exploring is done when the run ends.
// One message at a time is in flight: a checkpoint (the worker waits for its reply) or a
// handover (the worker goes on exploring; a checkpoint due meanwhile waits for the reply).
struct WorkerState {
  double last_checkpoint = 0;
  double explored_seconds = 0;
  bool checkpoint_asked = false;
  int give_asked = 0;  // K_max of a pending GiveRequest, 0: none
  bool exploring = false;
  bool report_in_flight = false;
  bool handover_in_flight = false;
  bool last_report_empty = true;  // its next unit comes from a split or W_unassigned
  double run_start = 0;
  double run_end = 0;
  std::uint64_t run = 0;
  double last_arrival = 0;  // messages from rank 0 arrive in order (MPI's non-overtaking)
};

class Simulation {
 public:
  Simulation(const WorkModel& model, const SimulationSettings& settings)
      : model_(model),
        settings_(with_handover_cap(settings)),
        coordinator_(
            model.jobs(), settings.workers,
            cluster::CoordinatorState{
                cluster::initial_decomposition(model.jobs(), settings.workers), Schedule{}, {}},
            coordinator_settings(settings_.design)),
        workers_(static_cast<std::size_t>(settings.workers),
                 VirtualWorker(model, settings.worker,
                               shared_host_rate(settings.worker, settings.workers))),
        states_(static_cast<std::size_t>(settings.workers)),
        real_ivms_(std::max(1.0, settings.worker.pieces * settings.service.intervals_per_piece)),
        checkpoint_period_(checkpoint_period(settings, static_cast<int>(real_ivms_))),
        next_global_checkpoint_(settings.design.global_checkpoint_seconds) {}

  SimulationResult run() {
    for (int w = 0; w < settings_.workers; ++w) {
      send_report(w, 0);  // each asks for work
      // As worker_process.cpp staggers them: worker w's first checkpoint is due w / N of a
      // period early, so that the workers' checkpoints do not reach rank 0 all at once.
      if (settings_.design.stretched_reports) {
        states_[w].last_checkpoint = -checkpoint_period_ * w / settings_.workers;
      }
    }
    while (!events_.empty()) {
      Event event = events_.top();
      events_.pop();
      dispatch(event);
    }
    return result();
  }

 private:
  static SimulationSettings with_handover_cap(SimulationSettings s) {
    if (s.design.max_handover_intervals <= 0) {
      s.design.max_handover_intervals = cluster::handover_interval_cap(s.workers);
    }
    return s;
  }

  static cluster::CoordinatorSettings coordinator_settings(const DesignSettings& design) {
    cluster::CoordinatorSettings c;
    c.max_handover_intervals = design.max_handover_intervals;
    return c;
  }

  // As worker/worker_process.cpp stretches it (report_cadence.hpp).
  static double checkpoint_period(const SimulationSettings& s, int ivms) {
    if (!s.design.stretched_reports) return s.worker.checkpoint_seconds;
    const double floor = std::min(cluster::report_period_floor(s.workers, ivms),
                                  s.design.rank_timeout_seconds / 2);
    return std::max(s.worker.checkpoint_seconds, floor);
  }

  void schedule(Event event) {
    event.order = next_order_++;
    events_.push(std::move(event));
  }

  // The intervals a real message holds for the `count` a virtual one holds: a checkpoint
  // holds the GPU's K; a handover, and the unit a waiting worker gets from a split or a
  // handover, at most H (the flat design: K).
  double real_intervals(std::size_t count, bool capped) const {
    if (count == 0) return 0;
    const double scaled = std::min(real_ivms_, count * settings_.service.intervals_per_piece);
    if (!capped || !settings_.design.handovers) return scaled;
    return std::min(scaled, static_cast<double>(settings_.design.max_handover_intervals));
  }

  double transfer_seconds(const Encoded& message, std::size_t count, double real) {
    const double per_interval_bytes =
        count > 0 ? static_cast<double>(message.bytes.size()) / static_cast<double>(count) : 0;
    const double scaled = count > 0 ? per_interval_bytes * real : message.bytes.size();
    bytes_ += scaled;
    ++messages_;
    return settings_.network.latency_seconds + scaled / settings_.network.bytes_per_second;
  }

  void dispatch(Event& event) {
    switch (event.kind) {
      case Event::kRunEnd:
        return on_run_end(event.time, event.worker, event.run);
      case Event::kAtCoordinator:
        return on_coordinator(event.time, event.worker, event.message, event.real_intervals);
      case Event::kAtWorker:
        return on_worker(event.time, event.worker, event.message);
    }
  }

  void send(double now, int worker, const cluster::ToCoordinator& message) {
    Encoded encoded = cluster::encode_for_coordinator(message);
    const std::size_t count = intervals_in(message);
    const double real = real_intervals(count, std::holds_alternative<cluster::Handover>(message));
    const double arrival = now + transfer_seconds(encoded, count, real);
    schedule({arrival, 0, Event::kAtCoordinator, worker, std::move(encoded), real});
  }

  // A checkpoint with work pauses the engine while it is built; the report leaves after it.
  void send_report(int worker, double now) {
    WorkerState& state = states_[worker];
    state.checkpoint_asked = false;
    state.give_asked = 0;  // a checkpoint answers a GiveRequest
    state.last_checkpoint = now;
    state.report_in_flight = true;
    const cluster::WorkReport report = workers_[worker].report();
    state.last_report_empty = report.intervals.empty();
    send(now + (state.last_report_empty ? 0 : settings_.worker.checkpoint_pause_seconds), worker,
         report);
  }

  // The handover leaves, and the worker explores on, once it is built. Returns that time.
  double send_handover(int worker, double now) {
    WorkerState& state = states_[worker];
    const int max_intervals = state.give_asked;
    state.give_asked = 0;
    state.handover_in_flight = true;
    ++handovers_;
    const double per_piece = std::max(1.0, settings_.service.intervals_per_piece);
    const int pieces = static_cast<int>(std::ceil(max_intervals / per_piece - 1e-9));
    const double built = now + settings_.worker.handover_pause_seconds;
    send(built, worker, workers_[worker].handover(pieces));
    return built;
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
    const double due = slice_boundary(state, state.last_checkpoint + checkpoint_period_);
    const double out_of_work = now + workers_[worker].seconds_to_finish();
    state.run_end = std::min(due, out_of_work);
    schedule({state.run_end, 0, Event::kRunEnd, worker, {}, 0, ++state.run});
  }

  // Explores up to `now` and stops (a run may start later than it was scheduled: after a
  // handover's or a refill's pause).
  void stop_run(int worker, double now) {
    WorkerState& state = states_[worker];
    if (!state.exploring) return;
    state.exploring = false;
    ++state.run;  // its end event is void
    state.explored_seconds += workers_[worker].explore(std::max(0.0, now - state.run_start));
  }

  void on_run_end(double now, int worker, std::uint64_t run) {
    WorkerState& state = states_[worker];
    if (run != state.run || !state.exploring) return;  // replaced by an earlier end
    stop_run(worker, now);
    next_step(worker, now);
  }

  // Between two slices (worker_process.cpp's post_if_due): a handover when asked, else a
  // checkpoint when one is due, else more exploring. With a handover in flight nothing is
  // sent: the worker explores on, or waits when it has nothing left.
  void next_step(int worker, double now) {
    WorkerState& state = states_[worker];
    VirtualWorker& w = workers_[worker];
    if (state.handover_in_flight) {
      if (w.has_work()) start_run(worker, now);
      return;
    }
    if (state.give_asked > 0 && w.has_work()) {
      const double built = send_handover(worker, now);
      if (w.has_work()) start_run(worker, built);
      return;
    }
    const bool due = now - state.last_checkpoint >= checkpoint_period_ - 1e-9;
    if (!w.has_work() || state.checkpoint_asked || due) {
      send_report(worker, now);  // no exploring until the reply: the report is its state
    } else {
      start_run(worker, now);
    }
  }

  // A request ends the run at the next slice boundary, or once the engine pauses when
  // requests interrupt slices (when the run ends later).
  void hasten(int worker, double now) {
    WorkerState& state = states_[worker];
    if (!state.exploring) return;
    const double interrupt = settings_.worker.interrupt_seconds;
    const double boundary = interrupt >= 0 ? std::max(now, state.run_start) + interrupt
                                           : slice_boundary(state, now);
    if (boundary < state.run_end) {
      state.run_end = boundary;
      schedule({boundary, 0, Event::kRunEnd, worker, {}, 0, ++state.run});
    }
  }

  // Rank 0 serves messages one at a time, in the order they arrive, and saves the global
  // checkpoint when it is due (every interval of every unit: the same per-interval cost).
  void on_coordinator(double now, int worker, const Encoded& encoded, double real_in) {
    double start = std::max(now, coordinator_free_);
    if (start >= next_global_checkpoint_) {
      const double cost = settings_.service.cpu_scale * settings_.service.per_interval *
                          real_intervals_in_pool();
      start += cost;
      busy_ += cost;
      next_global_checkpoint_ = start + settings_.design.global_checkpoint_seconds;
    }
    cluster::ToCoordinator message =
        cluster::decode_from_worker(static_cast<int>(encoded.tag), encoded.bytes);
    const bool handover = std::holds_alternative<cluster::Handover>(message);
    const std::vector<cluster::Outgoing> replies = coordinator_.handle(worker, std::move(message));
    struct Reply {
      int worker;
      Encoded encoded;
      std::size_t count;
      double real;
    };
    std::vector<Reply> out;
    double real = real_in;
    for (const cluster::Outgoing& reply : replies) {
      const std::size_t count = intervals_in(reply.message);
      // A unit for a worker that asked for work comes from a split, a handover or
      // W_unassigned; one for a worker that reported is its own unit, changed.
      const double r = real_intervals(count, states_[reply.worker].last_report_empty);
      real += r;
      out.push_back({reply.worker, cluster::encode_for_worker(reply.message), count, r});
    }
    const ServiceModel& s = settings_.service;
    const double service =
        s.cpu_scale * (s.fixed + s.per_interval * real + (handover ? s.handover : 0));
    const double done = start + service;
    coordinator_free_ = done;
    busy_ += service;
    for (Reply& reply : out) {
      WorkerState& to = states_[reply.worker];
      const double arrival =
          std::max(to.last_arrival, done + transfer_seconds(reply.encoded, reply.count, reply.real));
      to.last_arrival = arrival;
      schedule({arrival, 0, Event::kAtWorker, reply.worker, std::move(reply.encoded)});
    }
    if (coordinator_.finished()) end_ = done;
  }

  double real_intervals_in_pool() const {
    double total = 0;
    for (const WorkUnit& unit : coordinator_.unassigned()) {
      total += real_intervals(unit.interval_count(), false);
    }
    for (const WorkUnit& copy : coordinator_.copies()) {
      total += real_intervals(copy.interval_count(), false);
    }
    return total;
  }

  void on_worker(double now, int worker, const Encoded& encoded) {
    WorkerState& state = states_[worker];
    const cluster::ToWorker message =
        cluster::decode_from_coordinator(static_cast<int>(encoded.tag), encoded.bytes);
    if (std::holds_alternative<cluster::CheckpointRequest>(message)) {
      state.checkpoint_asked = true;
      hasten(worker, now);
      return;
    }
    if (const auto* give = std::get_if<cluster::GiveRequest>(&message)) {
      if (state.report_in_flight) return;  // void: that checkpoint answers it
      if (settings_.design.handovers) {
        state.give_asked = give->max_intervals;
      } else {
        state.checkpoint_asked = true;  // the flat design: split at the victim's checkpoint
      }
      hasten(worker, now);
      return;
    }
    // A reply: to the checkpoint or to the handover in flight.
    state.report_in_flight = false;
    state.handover_in_flight = false;
    if (std::holds_alternative<cluster::StopOrder>(message)) {
      stop_run(worker, now);
      send(now, worker, workers_[worker].farewell());
      return;
    }
    // WORK: a new or modified unit; BEST: nothing changed, go on with the unit.
    double start = now;
    if (const auto* work = std::get_if<cluster::WorkAssignment>(&message)) {
      stop_run(worker, now);
      const bool fresh = !workers_[worker].has_work();
      workers_[worker].assign(work->unit_id, work->intervals);
      if (fresh) start += settings_.worker.refill_seconds;  // a new unit spreads over the IVMs
    }
    // Work in hand: at least a slice of exploring before anything is due again (a reply
    // that comes after the checkpoint period must not start another checkpoint at once).
    if (state.exploring) return;
    if (workers_[worker].has_work()) {
      start_run(worker, start);
    } else {
      next_step(worker, now);
    }
  }

  SimulationResult result() const {
    SimulationResult r;
    r.workers = settings_.workers;
    r.wall_seconds = end_;
    r.model_nodes = model_.total_nodes();
    r.nodes = coordinator_.stats().decomposed;
    // Against GPUs as fast as one alone on its host: what the host costs is lost too.
    r.ideal_seconds =
        static_cast<double>(r.nodes) / (settings_.workers * settings_.worker.nodes_per_second);
    r.efficiency = end_ > 0 ? r.ideal_seconds / end_ : 0;
    r.coordinator_busy = end_ > 0 ? busy_ / end_ : 0;
    r.messages = messages_;
    r.bytes = bytes_;
    r.splits = coordinator_.stats().splits;
    r.handovers = handovers_;
    r.handover_intervals = settings_.design.max_handover_intervals;
    r.checkpoint_period_seconds = checkpoint_period_;
    r.coverage_holds = coordinator_.coverage_holds() && coordinator_.all_work_done();
    double idle_sum = 0;
    for (const WorkerState& state : states_) {
      const double idle = end_ - state.explored_seconds;
      idle_sum += idle;
      r.max_idle_seconds = std::max(r.max_idle_seconds, idle);
    }
    r.mean_idle_seconds = idle_sum / settings_.workers;
    double busy_sum = 0;
    for (const VirtualWorker& worker : workers_) {
      busy_sum += worker.mean_busy_share();
      r.max_thin_seconds = std::max(r.max_thin_seconds, worker.thin_seconds());
    }
    r.mean_busy_share = busy_sum / settings_.workers;
    return r;
  }

  const WorkModel& model_;
  SimulationSettings settings_;
  cluster::Coordinator coordinator_;
  std::vector<VirtualWorker> workers_;
  std::vector<WorkerState> states_;
  const double real_ivms_;
  const double checkpoint_period_;
  std::priority_queue<Event, std::vector<Event>, Later> events_;
  std::uint64_t next_order_ = 0;
  double coordinator_free_ = 0;
  double next_global_checkpoint_;
  double busy_ = 0;
  double end_ = 0;
  double bytes_ = 0;
  std::uint64_t messages_ = 0;
  std::uint64_t handovers_ = 0;
};

}  // namespace

ServiceModel calibrate_service(int jobs, int intervals, int ivms, int handover_intervals,
                               double seconds) {
  constexpr int kFew = 16;
  const double few = measure_checkpoint_cost(jobs, kFew, seconds / 3).seconds_per_checkpoint();
  const double many =
      measure_checkpoint_cost(jobs, intervals, seconds / 3).seconds_per_checkpoint();
  // The measured checkpoints are answered by BEST (the report lies within the copy): their
  // cost is the intervals that come in. A reply that carries intervals is charged the same
  // per interval, which is more than encoding costs (permbb-bench-coordinator): the model
  // errs towards a busier rank 0.
  ServiceModel service;
  service.per_interval = std::max(0.0, (many - few) / (intervals - kFew));
  service.fixed = std::max(0.0, few - kFew * service.per_interval);
  service.handover = measure_handover_sweep(jobs, ivms, handover_intervals, seconds / 3);
  return service;
}

DesignSettings DesignSettings::flat() {
  DesignSettings flat;
  flat.handovers = false;
  flat.stretched_reports = false;
  flat.max_handover_intervals = std::numeric_limits<int>::max();
  return flat;
}

SimulationResult simulate(const WorkModel& model, const SimulationSettings& settings) {
  if (settings.workers < 1) throw std::invalid_argument("scale simulation: no workers");
  return Simulation(model, settings).run();
}

}  // namespace permbb::scale
