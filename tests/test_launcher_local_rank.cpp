// The rank's place on its node as the launcher's environment says it before MPI starts
// (common/protocol/mpi_transport.hpp, launcher_local_rank): what gpu::DriverStart guesses the
// rank's GPU from. Open MPI's variable first, then MPICH's; anything but a plain number is
// no answer.
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "mpi_transport.hpp"

namespace permbb::cluster {
namespace {

// Sets the launchers' variables for one test and puts back what was there.
class LauncherVariables : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : kNames) {
      const char* value = std::getenv(name);
      saved_.push_back(value ? std::optional<std::string>(value) : std::nullopt);
      unsetenv(name);
    }
  }
  void TearDown() override {
    for (std::size_t i = 0; i < saved_.size(); ++i) {
      if (saved_[i]) {
        setenv(kNames[i], saved_[i]->c_str(), 1);
      } else {
        unsetenv(kNames[i]);
      }
    }
  }
  static constexpr const char* kNames[] = {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID"};
  std::vector<std::optional<std::string>> saved_;
};

TEST_F(LauncherVariables, NoneSetIsNoAnswer) { EXPECT_EQ(launcher_local_rank(), std::nullopt); }

TEST_F(LauncherVariables, OpenMpisVariableComesFirst) {
  setenv("MPI_LOCALRANKID", "5", 1);
  EXPECT_EQ(launcher_local_rank(), 5);
  setenv("OMPI_COMM_WORLD_LOCAL_RANK", "3", 1);
  EXPECT_EQ(launcher_local_rank(), 3);
}

TEST_F(LauncherVariables, OnlyAPlainNumberCounts) {
  for (const char* bad : {"", "x", "2x", "-1", "99999999999"}) {
    setenv("OMPI_COMM_WORLD_LOCAL_RANK", bad, 1);
    EXPECT_EQ(launcher_local_rank(), std::nullopt) << "'" << bad << "'";
  }
  setenv("MPI_LOCALRANKID", "0", 1);  // the next variable answers instead
  EXPECT_EQ(launcher_local_rank(), 0);
}

}  // namespace
}  // namespace permbb::cluster
