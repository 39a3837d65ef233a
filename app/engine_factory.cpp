#include "engine_factory.hpp"

#include "gpu_devices.hpp"
#include "input_error.hpp"
#include "multicore_engine.hpp"
#include "steal_policy.hpp"

namespace permbb::app {
namespace {

std::unique_ptr<SearchEngine> make_multicore(const SolveOptions& options,
                                             const Instance& instance,
                                             const SearchSettings& settings,
                                             Incumbent& incumbent) {
  MulticoreOptions multicore;
  multicore.threads = options.threads;
  multicore.policy = parse_steal_policy(options.steal_policy);
  return std::make_unique<MulticoreEngine>(instance, settings, incumbent, multicore);
}

}  // namespace

std::unique_ptr<SearchEngine> make_engine(const SolveOptions& options, const Instance& instance,
                                          const SearchSettings& settings, Incumbent& incumbent) {
  if (options.gpu == "off") return make_multicore(options, instance, settings, incumbent);
  const bool have_gpu = gpu::built_with_cuda() && !gpu::list_devices().empty();
  if (options.gpu == "on" && !have_gpu) {
    throw InputError(gpu::built_with_cuda() ? "--gpu: no CUDA device is visible"
                                            : "--gpu: this permbb was built without CUDA");
  }
  if (!have_gpu) return make_multicore(options, instance, settings, incumbent);
  if (options.gpu == "on") throw InputError("--gpu: the GPU explorer is not part of this build yet");
  return make_multicore(options, instance, settings, incumbent);
}

}  // namespace permbb::app
