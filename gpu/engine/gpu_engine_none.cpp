// The stand-in for builds without nvcc: the GPU engine cannot be made.
#include <stdexcept>

#include "gpu_engine.hpp"

namespace permbb::gpu {

class GpuEngine::Impl {};

GpuEngine::GpuEngine(const Instance&, const SearchSettings&, Incumbent&, const GpuOptions&) {
  throw std::runtime_error("built without CUDA");
}
GpuEngine::~GpuEngine() = default;
void GpuEngine::set_work(const std::vector<Interval>&) {}
bool GpuEngine::explore(std::chrono::duration<double>) { return true; }
std::vector<Interval> GpuEngine::remaining() { return {}; }
void GpuEngine::request_stop() {}
EngineStats GpuEngine::stats() const { return {}; }
std::vector<PromotedSubproblem> GpuEngine::sample_subproblems(int) {
  return {};
}
bool GpuEngine::collect_cut(SearchCut&) { return false; }
const GpuEngineInfo& GpuEngine::info() const {
  static const GpuEngineInfo none;
  return none;
}

std::unique_ptr<SearchEngine> make_gpu_engine(const Instance&, const SearchSettings&,
                                              Incumbent&, const GpuOptions&) {
  throw std::runtime_error("built without CUDA");
}

const GpuEngineInfo& engine_info(SearchEngine&) { throw std::runtime_error("built without CUDA"); }

}  // namespace permbb::gpu
