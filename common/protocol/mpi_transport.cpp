#include "mpi_transport.hpp"

#include <mpi.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <thread>

namespace permbb::cluster {
namespace {

void check(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw std::runtime_error(std::string(call) + " failed: " + std::string(text, length));
}

Received receive(const MPI_Status& probed) {
  int count = 0;
  check(MPI_Get_count(&probed, MPI_BYTE, &count), "MPI_Get_count");
  Received r;
  r.source = probed.MPI_SOURCE;
  r.tag = probed.MPI_TAG;
  r.bytes.resize(static_cast<size_t>(count));
  check(MPI_Recv(r.bytes.data(), count, MPI_BYTE, r.source, r.tag, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE),
        "MPI_Recv");
  return r;
}

// Every node rank's affinity mask, by node-local rank: one MPI_Allgather on the node's
// communicator of std::bitset's own text form ('0' or '1' a CPU).
std::vector<CpuMask> gather_node_masks(MPI_Comm node, int local_size) {
  const std::string mine = affinity_mask().to_string();
  const int length = static_cast<int>(mine.size());
  std::string all(static_cast<std::size_t>(local_size) * mine.size(), '0');
  check(MPI_Allgather(mine.data(), length, MPI_CHAR, all.data(), length, MPI_CHAR, node),
        "MPI_Allgather");
  std::vector<CpuMask> masks;
  for (std::size_t r = 0; r < static_cast<std::size_t>(local_size); ++r) {
    masks.emplace_back(all, r * mine.size(), mine.size());
  }
  return masks;
}

}  // namespace

bool launched_by_mpi_launcher() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"}) {
    if (std::getenv(name) != nullptr) return true;
  }
  return false;
}

int launcher_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"}) {
    if (const char* value = std::getenv(name)) return std::atoi(value);
  }
  return 0;
}

std::optional<int> launcher_local_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID"}) {
    const char* value = std::getenv(name);
    if (value == nullptr) continue;
    char* end = nullptr;
    const long rank = std::strtol(value, &end, 10);
    const bool plain_number = end != value && *end == '\0';
    if (plain_number && rank >= 0 && rank < (1L << 20)) return static_cast<int>(rank);
  }
  return std::nullopt;
}

std::string mpi_library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  if (MPI_Get_library_version(text, &length) != MPI_SUCCESS) return "unknown";
  const std::string version(text, static_cast<std::size_t>(length));
  return version.substr(0, version.find_first_of(",\n"));
}

MpiSession::MpiSession(int* argc, char*** argv) {
  int provided = 0;
  check(MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided), "MPI_Init_thread");
  if (provided < MPI_THREAD_SERIALIZED) {
    MPI_Finalize();
    throw std::runtime_error("MPI does not provide MPI_THREAD_SERIALIZED");
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  MPI_Comm node;
  check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node),
        "MPI_Comm_split_type");
  MPI_Comm_rank(node, &local_rank_);
  MPI_Comm_size(node, &local_size_);
  // The node's ranks are ordered by world rank (the split's key): rank 0, where it runs here,
  // is the node's first.
  int lowest_rank_here = rank_;
  check(MPI_Allreduce(&rank_, &lowest_rank_here, 1, MPI_INT, MPI_MIN, node), "MPI_Allreduce");
  rank_zero_local_rank_ = lowest_rank_here == 0 ? 0 : -1;
  node_masks_ = gather_node_masks(node, local_size_);
  MPI_Comm_free(&node);
  gather_host_names();
  gather_local_ranks();
}

void MpiSession::gather_local_ranks() {
  local_ranks_.assign(static_cast<std::size_t>(size_), -1);
  check(MPI_Allgather(&local_rank_, 1, MPI_INT, local_ranks_.data(), 1, MPI_INT, MPI_COMM_WORLD),
        "MPI_Allgather");
}

int MpiSession::local_rank_of(int rank) const {
  if (rank < 0 || rank >= static_cast<int>(local_ranks_.size())) return -1;
  return local_ranks_[static_cast<std::size_t>(rank)];
}

// Every rank's processor name, in fixed-size slots (one MPI_Allgather at the start).
void MpiSession::gather_host_names() {
  std::vector<char> mine(MPI_MAX_PROCESSOR_NAME, '\0');
  int length = 0;
  check(MPI_Get_processor_name(mine.data(), &length), "MPI_Get_processor_name");
  std::vector<char> all(static_cast<std::size_t>(size_) * MPI_MAX_PROCESSOR_NAME, '\0');
  check(MPI_Allgather(mine.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(),
                      MPI_MAX_PROCESSOR_NAME, MPI_CHAR, MPI_COMM_WORLD),
        "MPI_Allgather");
  for (int r = 0; r < size_; ++r) {
    const char* name = all.data() + static_cast<std::size_t>(r) * MPI_MAX_PROCESSOR_NAME;
    host_names_.emplace_back(name, strnlen(name, MPI_MAX_PROCESSOR_NAME));
  }
}

std::string MpiSession::host_name(int rank) const {
  if (rank < 0 || rank >= static_cast<int>(host_names_.size())) return {};
  return host_names_[static_cast<std::size_t>(rank)];
}

std::string MpiSession::rank_name(int rank) const {
  const std::string host = host_name(rank);
  return "rank " + std::to_string(rank) + (host.empty() ? "" : " (host " + host + ")");
}

MpiSession::~MpiSession() { MPI_Finalize(); }

void send_bytes(int destination, int tag, const std::vector<std::uint8_t>& bytes) {
  check(MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, destination, tag,
                 MPI_COMM_WORLD),
        "MPI_Send");
}

struct AsyncSends::Pending {
  std::vector<std::uint8_t> bytes;
  MPI_Request request = MPI_REQUEST_NULL;
};

AsyncSends::AsyncSends() = default;

// Unfinished sends go to a rank that stopped receiving, and the job is about to be aborted:
// their buffers are left to MPI (which may still read them until then), never freed under it.
AsyncSends::~AsyncSends() {
  for (auto& p : pending_) static_cast<void>(p.release());
}

void AsyncSends::send(int destination, int tag, std::vector<std::uint8_t> bytes) {
  auto pending = std::make_unique<Pending>();
  pending->bytes = std::move(bytes);
  check(MPI_Isend(pending->bytes.data(), static_cast<int>(pending->bytes.size()), MPI_BYTE,
                  destination, tag, MPI_COMM_WORLD, &pending->request),
        "MPI_Isend");
  pending_.push_back(std::move(pending));
}

void AsyncSends::progress() {
  std::erase_if(pending_, [](const std::unique_ptr<Pending>& p) {
    int done = 0;
    check(MPI_Test(&p->request, &done, MPI_STATUS_IGNORE), "MPI_Test");
    return done != 0;
  });
}

void AsyncSends::wait_all() {
  for (const auto& p : pending_) check(MPI_Wait(&p->request, MPI_STATUS_IGNORE), "MPI_Wait");
  pending_.clear();
}

std::size_t AsyncSends::pending() const { return pending_.size(); }

Received receive_from(int source) {
  MPI_Status status;
  check(MPI_Probe(source, MPI_ANY_TAG, MPI_COMM_WORLD, &status), "MPI_Probe");
  return receive(status);
}

std::optional<Received> poll(int source) {
  int flag = 0;
  MPI_Status status;
  check(MPI_Iprobe(source < 0 ? MPI_ANY_SOURCE : source, MPI_ANY_TAG, MPI_COMM_WORLD, &flag,
                   &status),
        "MPI_Iprobe");
  if (!flag) return std::nullopt;
  return receive(status);
}

int max_over_ranks(int value) {
  int largest = value;
  MPI_Allreduce(&value, &largest, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return largest;
}

bool barrier_within(double seconds) {
  // Polled rather than blocking, so that a rank that never comes cannot hold this one.
  constexpr auto kPoll = std::chrono::milliseconds(1);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  MPI_Request request = MPI_REQUEST_NULL;
  check(MPI_Ibarrier(MPI_COMM_WORLD, &request), "MPI_Ibarrier");
  while (true) {
    int done = 0;
    check(MPI_Test(&request, &done, MPI_STATUS_IGNORE), "MPI_Test");
    if (done) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(kPoll);
  }
}

void abort_job(const std::string& message, int exit_code) {
  std::cerr << message << std::endl;
  MPI_Abort(MPI_COMM_WORLD, exit_code);
}

}  // namespace permbb::cluster
