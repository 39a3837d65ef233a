// Tests of the removal of stale checkpoint temporaries: which leftovers of killed writers go
// (a gone, zombie, recycled or own pid; another host's old file) and which stay (a live
// writer's, another host's recent one, every file that is not a temporary of this path).
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "checkpoint_file.hpp"
#include "checkpoint_temporaries.hpp"

namespace permbb {
namespace {

namespace fs = std::filesystem;

// A child process that lives until the object is destroyed.
class LiveProcess {
 public:
  LiveProcess() {
    if (::pipe(pipe_) != 0) throw std::runtime_error("pipe failed");
    pid_ = ::fork();
    if (pid_ == 0) {
      char byte;
      ::close(pipe_[1]);
      while (::read(pipe_[0], &byte, 1) < 0) {
      }
      ::_exit(0);
    }
    ::close(pipe_[0]);
  }
  ~LiveProcess() {
    ::close(pipe_[1]);  // the child's read returns 0: it exits
    ::waitpid(pid_, nullptr, 0);
  }
  LiveProcess(const LiveProcess&) = delete;
  LiveProcess& operator=(const LiveProcess&) = delete;
  pid_t pid() const { return pid_; }

 private:
  int pipe_[2] = {-1, -1};
  pid_t pid_ = -1;
};

// The pid of a process that has ended and been reaped.
pid_t gone_pid() {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  ::waitpid(pid, nullptr, 0);
  return pid;
}

class CheckpointTemporaries : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    folder_ = fs::temp_directory_path() /
              ("permbb_ckpt_tmp_" + std::to_string(::getpid()) + "_" + info->name());
    fs::remove_all(folder_);
    fs::create_directories(folder_);
    path_ = (folder_ / "search.ckpt").string();
    // "<path>.tmp.<host>.<pid>": the host part as temporary_name writes it.
    const std::string own = temporary_name(path_);
    const std::string prefix = path_ + ".tmp.";
    host_ = own.substr(prefix.size(), own.rfind('.') - prefix.size());
  }
  void TearDown() override { fs::remove_all(folder_); }

  // Creates `name` in the folder, last written `age` ago; returns its path.
  std::string file(const std::string& name, std::chrono::seconds age = std::chrono::seconds(0)) {
    const fs::path where = folder_ / name;
    std::ofstream(where) << "partial checkpoint";
    fs::last_write_time(where, fs::file_time_type::clock::now() - age);
    return where.string();
  }
  std::string temporary(const std::string& host, pid_t pid,
                        std::chrono::seconds age = std::chrono::seconds(0)) {
    return file("search.ckpt.tmp." + host + "." + std::to_string(pid), age);
  }

  std::vector<std::string> removed() {
    auto names = remove_stale_temporaries(path_);
    std::sort(names.begin(), names.end());
    return names;
  }

  fs::path folder_;
  std::string path_;
  std::string host_;
};

TEST_F(CheckpointTemporaries, TheNameCarriesThisHostAndPidWithoutADotInTheHost) {
  EXPECT_EQ(temporary_name(path_), path_ + ".tmp." + host_ + "." + std::to_string(::getpid()));
  EXPECT_FALSE(host_.empty());
  EXPECT_EQ(host_.find('.'), std::string::npos);
}

TEST_F(CheckpointTemporaries, ThoseOfGoneProcessesOfThisHostAreRemovedAtOnce) {
  const pid_t gone = gone_pid();
  const std::string tmp = temporary(host_, gone);
  const std::string prev_tmp = file("search.ckpt.prev.tmp." + host_ + "." + std::to_string(gone));
  EXPECT_EQ(removed(), (std::vector<std::string>{prev_tmp, tmp}));
  EXPECT_FALSE(fs::exists(tmp));
  EXPECT_FALSE(fs::exists(prev_tmp));
}

TEST_F(CheckpointTemporaries, AZombieWriterAndThisVeryProcessOwnNothing) {
  const pid_t zombie = ::fork();
  if (zombie == 0) ::_exit(0);
  siginfo_t info;
  ::waitid(P_PID, static_cast<id_t>(zombie), &info, WEXITED | WNOWAIT);  // exited, not reaped
  const std::string of_zombie = temporary(host_, zombie);
  const std::string own = temporary(host_, ::getpid());
  EXPECT_EQ(removed(), (std::vector<std::string>{std::min(of_zombie, own),
                                                 std::max(of_zombie, own)}));
  ::waitpid(zombie, nullptr, 0);
}

TEST_F(CheckpointTemporaries, ALiveWritersTemporaryStaysUnlessItsPidWasRecycled) {
  LiveProcess writer;
  const std::string current = temporary(host_, writer.pid());
  EXPECT_TRUE(removed().empty());
  EXPECT_TRUE(fs::exists(current));
  // Written an hour before the process with that pid started: another, earlier process's.
  fs::remove(current);
  const std::string older = temporary(host_, writer.pid(), std::chrono::hours(1));
  EXPECT_EQ(removed(), std::vector<std::string>{older});
}

TEST_F(CheckpointTemporaries, OtherHostsAndOldNamesWithoutHostAreRemovedOnlyWhenOld) {
  const pid_t gone = gone_pid();
  const std::string recent_other = temporary("node17", 4242);
  const std::string recent_old_name = file("search.ckpt.tmp." + std::to_string(gone));
  const auto age = std::chrono::duration_cast<std::chrono::seconds>(kForeignTemporaryAge) +
                   std::chrono::seconds(60);
  const std::string old_other = temporary("node17", 4243, age);
  const std::string old_old_name = file("search.ckpt.prev.tmp.4244", age);
  EXPECT_EQ(removed(), (std::vector<std::string>{old_old_name, old_other}));
  EXPECT_TRUE(fs::exists(recent_other));
  EXPECT_TRUE(fs::exists(recent_old_name));
}

TEST_F(CheckpointTemporaries, FilesThatAreNotTemporariesOfThisPathStay) {
  const pid_t gone = gone_pid();
  const auto age = std::chrono::hours(48);
  const std::vector<std::string> kept = {
      file("search.ckpt", age),
      file("search.ckpt.prev", age),
      file("other.ckpt.tmp." + host_ + "." + std::to_string(gone), age),
      file("search.ckpt.tmp." + host_ + ".12x", age),
      file("search.ckpt.tmp." + host_ + ".", age),
      file("search.ckpt.tmp.", age),
      file("search.ckpt.tmpx." + std::to_string(gone), age),
      file("search.ckpt.tmp.." + std::to_string(gone), age),
      file("xsearch.ckpt.tmp." + host_ + "." + std::to_string(gone), age),
  };
  fs::create_directory(folder_ / ("search.ckpt.tmp." + host_ + "." + std::to_string(gone)));
  EXPECT_TRUE(removed().empty());
  for (const std::string& name : kept) EXPECT_TRUE(fs::exists(name)) << name;
}

TEST_F(CheckpointTemporaries, TheStartCheckOfACheckpointPathRemovesWhatAKilledRunLeft) {
  const std::string left = temporary(host_, gone_pid());
  check_checkpoint_writable(path_);
  EXPECT_FALSE(fs::exists(left));
  EXPECT_FALSE(fs::exists(temporary_name(path_)));
  EXPECT_EQ(std::distance(fs::directory_iterator(folder_), fs::directory_iterator()), 0);
}

// A save killed between its steps 2 and 3 leaves FILE and FILE.prev as two links to one file
// (checkpoint_file.hpp); the next save must not leave its FILE.prev temporary behind, as
// rename does nothing when both names are links to one file.
TEST_F(CheckpointTemporaries, ASaveAfterOneKilledBetweenItsStepsLeavesNoTemporary) {
  GlobalCheckpoint checkpoint;
  checkpoint.instance_name = "tiny";
  checkpoint.jobs = 3;
  checkpoint.machines = 2;
  checkpoint.initial_ub = 100;
  checkpoint.best_makespan = 100;
  checkpoint.statistics.nodes_decomposed = 1;
  save_checkpoint(checkpoint, path_);
  fs::create_hard_link(path_, path_ + ".prev");
  checkpoint.statistics.nodes_decomposed = 2;
  save_checkpoint(checkpoint, path_);
  EXPECT_EQ(load_checkpoint(path_).statistics.nodes_decomposed, 2u);
  EXPECT_EQ(load_checkpoint(path_ + ".prev").statistics.nodes_decomposed, 1u);
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(folder_)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"search.ckpt", "search.ckpt.prev"}));
}

TEST_F(CheckpointTemporaries, AMissingFolderRemovesNothingAndThrowsNothing) {
  EXPECT_TRUE(remove_stale_temporaries((folder_ / "missing" / "x.ckpt").string()).empty());
}

}  // namespace
}  // namespace permbb
