#include "mpi_transport.hpp"

#include <mpi.h>

#include <cstdlib>
#include <iostream>
#include <stdexcept>

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

}  // namespace

bool launched_by_mpi_launcher() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"}) {
    if (std::getenv(name) != nullptr) return true;
  }
  return false;
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
  MPI_Comm_free(&node);
}

MpiSession::~MpiSession() { MPI_Finalize(); }

void send_bytes(int destination, int tag, const std::vector<std::uint8_t>& bytes) {
  check(MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, destination, tag,
                 MPI_COMM_WORLD),
        "MPI_Send");
}

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

void abort_job(const std::string& message, int exit_code) {
  std::cerr << message << std::endl;
  MPI_Abort(MPI_COMM_WORLD, exit_code);
}

}  // namespace permbb::cluster
