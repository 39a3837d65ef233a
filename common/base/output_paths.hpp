#pragma once
// The one rule every command applies to the files it writes: an output never names one of the
// run's inputs, nor another of its outputs. A user who types `--json run.ckpt` for
// `checkpoint run.ckpt`, or names the same file twice, would otherwise lose it.
#include <string>
#include <vector>

namespace permbb {

// A path as the user gave it, with what it is for the message ("--json", "the instance").
struct NamedPath {
  std::string what;
  std::string path;
};

// Whether two paths name one file: the same inode when both exist (symbolic and hard links,
// "./x" and "x"), else the same normalised path. "" and "-" (standard output) name no file.
bool same_file(const std::string& a, const std::string& b);

// Throws InputError, before anything is written, when an output names one of `inputs` or an
// output named before it: "--json r.ck: the same file as the checkpoint r.ck, which it would
// overwrite".
void refuse_outputs_naming_inputs(const std::vector<NamedPath>& outputs,
                                  const std::vector<NamedPath>& inputs);

// The file a path names, through symbolic links (relative ones from the link's folder), even
// when the last target does not exist yet: a file replaced by rename (a checkpoint) must be
// the link's target, never the link, and a lock beside it must be one for every name of it.
// `path` itself when it is no link; throws InputError for a loop of links.
std::string link_target(const std::string& path);

}  // namespace permbb
