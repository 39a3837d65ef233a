#include "output_paths.hpp"

#include <sys/stat.h>

#include <filesystem>

#include "input_error.hpp"

namespace permbb {

bool same_file(const std::string& a, const std::string& b) {
  const auto names_a_file = [](const std::string& p) { return !p.empty() && p != "-"; };
  if (!names_a_file(a) || !names_a_file(b)) return false;
  struct stat first {}, second {};
  const bool a_exists = ::stat(a.c_str(), &first) == 0;
  const bool b_exists = ::stat(b.c_str(), &second) == 0;
  if (a_exists && b_exists) return first.st_dev == second.st_dev && first.st_ino == second.st_ino;
  if (a_exists != b_exists) return false;
  std::error_code error;
  return std::filesystem::weakly_canonical(a, error) == std::filesystem::weakly_canonical(b, error);
}

void refuse_outputs_naming_inputs(const std::vector<NamedPath>& outputs,
                                  const std::vector<NamedPath>& inputs) {
  std::vector<NamedPath> taken = inputs;
  for (const NamedPath& output : outputs) {
    for (const NamedPath& other : taken) {
      if (same_file(output.path, other.path)) {
        throw InputError(output.what + " " + output.path + ": the same file as " + other.what +
                         " " + other.path + ", which it would overwrite");
      }
    }
    taken.push_back(output);
  }
}

std::string link_target(const std::string& path) {
  namespace fs = std::filesystem;
  fs::path current = path;
  for (int hops = 0; hops < 40; ++hops) {
    std::error_code error;
    if (!fs::is_symlink(fs::symlink_status(current, error))) return current.string();
    const fs::path target = fs::read_symlink(current, error);
    if (error) return current.string();
    current = target.is_absolute() ? target : current.parent_path() / target;
  }
  throw InputError(path + ": too many levels of symbolic links");
}

}  // namespace permbb
