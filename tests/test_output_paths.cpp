// The rule every command applies to its outputs (common/base/output_paths.hpp), and the advisory
// locks that keep two runs off one file (common/base/file_lock.hpp), on real files in a scratch
// folder. OFD locks belong to an open file description, so two locks taken in this one
// process conflict as two processes' would.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "file_lock.hpp"
#include "input_error.hpp"
#include "output_paths.hpp"
#include "text_file.hpp"

namespace permbb {
namespace {

namespace fs = std::filesystem;

class ScratchFolder : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = fs::temp_directory_path() /
              ("permbb-output-paths-" + std::to_string(::getpid()) + "-" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(folder_);
  }
  void TearDown() override { fs::remove_all(folder_); }

  std::string file(const std::string& name, const std::string& text = "x") {
    const std::string path = (folder_ / name).string();
    std::ofstream(path) << text;
    return path;
  }
  std::string name(const std::string& name) const { return (folder_ / name).string(); }

  fs::path folder_;
};

TEST_F(ScratchFolder, SameFileThroughLinksAndSpellings) {
  const std::string original = file("a.ck");
  fs::create_symlink(original, name("soft"));
  fs::create_hard_link(original, name("hard"));
  EXPECT_TRUE(same_file(original, name("soft")));
  EXPECT_TRUE(same_file(original, name("hard")));
  EXPECT_TRUE(same_file(original, (folder_ / "." / "a.ck").string()));
  EXPECT_FALSE(same_file(original, file("b.ck")));
  // Neither exists yet: the same normalised path is the same file-to-be.
  EXPECT_TRUE(same_file(name("new.json"), (folder_ / "sub" / ".." / "new.json").string()));
  EXPECT_FALSE(same_file(name("new.json"), name("other.json")));
  EXPECT_FALSE(same_file("-", "-"));  // standard output is no file
  EXPECT_FALSE(same_file("", ""));
}

TEST_F(ScratchFolder, AnOutputNamingAnInputOrAnEarlierOutputIsRefusedByName) {
  const std::string input = file("in.txt");
  fs::create_symlink(input, name("link.txt"));
  try {
    refuse_outputs_naming_inputs({{"--json", name("link.txt")}}, {{"the instance", input}});
    FAIL() << "not refused";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("--json " + name("link.txt")), std::string::npos) << message;
    EXPECT_NE(message.find("the instance " + input), std::string::npos) << message;
  }
  EXPECT_THROW(refuse_outputs_naming_inputs(
                   {{"--json", name("out")}, {"--progress-log", name("out")}}, {}),
               InputError);
  EXPECT_NO_THROW(refuse_outputs_naming_inputs(
      {{"--json", name("out")}, {"--progress-log", name("log")}, {"--json", "-"}},
      {{"the instance", input}, {"--restart", ""}}));
}

TEST_F(ScratchFolder, ASecondLockOnOnePathIsRefusedUntilTheFirstIsReleased) {
  const std::string path = name("run.ck");
  {
    const PathLock first(path, "--checkpoint");
    EXPECT_EQ(first.unprotected(), "");
    try {
      const PathLock second(path, "--checkpoint");
      FAIL() << "the second lock was granted";
    } catch (const InputError& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find("in use by another run"), std::string::npos) << message;
      EXPECT_NE(message.find("pid " + std::to_string(::getpid())), std::string::npos) << message;
    }
  }
  EXPECT_NO_THROW(PathLock(path, "--checkpoint"));  // released with the first
  EXPECT_NO_THROW(PathLock("", "--checkpoint"));    // no path, no lock
}

TEST_F(ScratchFolder, ALockFileThatCannotBeMadeLeavesThePathUnprotectedNotRefused) {
  const PathLock lock(name("missing-folder") + "/run.ck", "--checkpoint");
  EXPECT_NE(lock.unprotected().find("nothing stops a second run"), std::string::npos);
}

TEST(WithoutComments, DropsCommentsAndAByteOrderMarkAndKeepsLineBreaks) {
  EXPECT_EQ(without_comments("\xEF\xBB\xBF" "3 2 # jobs machines\n# all\n1 2\n"),
            "3 2 \n\n1 2\n");
  EXPECT_EQ(without_comments("1 2"), "1 2");
  EXPECT_EQ(without_comments("#"), "");
  // A mark elsewhere than at the start is data: the reader refuses it as a bad token.
  EXPECT_EQ(without_comments("1 \xEF\xBB\xBF"), "1 \xEF\xBB\xBF");
}

// A checkpoint is replaced by rename: through a link it must be the link's target that is
// written, relative links read from the link's folder, chains followed, a dangling link
// (the first checkpoint) named by its target, a loop refused.
TEST_F(ScratchFolder, LinkTargetFollowsLinksToTheFileTheyName) {
  const std::string target = file("target.ck");
  EXPECT_EQ(link_target(target), target);
  fs::create_directories(folder_ / "sub");
  fs::create_symlink("../target.ck", folder_ / "sub" / "relative.ck");
  EXPECT_TRUE(same_file(link_target(name("sub/relative.ck")), target));
  EXPECT_FALSE(fs::is_symlink(link_target(name("sub/relative.ck"))));
  fs::create_symlink(name("sub/relative.ck"), name("chain.ck"));
  EXPECT_FALSE(fs::is_symlink(link_target(name("chain.ck"))));
  fs::create_symlink(name("not-yet.ck"), name("dangling.ck"));
  EXPECT_EQ(link_target(name("dangling.ck")), name("not-yet.ck"));
  fs::create_symlink(name("loop-b"), name("loop-a"));
  fs::create_symlink(name("loop-a"), name("loop-b"));
  EXPECT_THROW(link_target(name("loop-a")), InputError);
}

}  // namespace
}  // namespace permbb
