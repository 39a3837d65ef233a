// Tests of the checkpoints' checksum (CRC-64/XZ): the catalogue's check value, the bitwise
// definition on random bytes, and a checksum computed in pieces.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "crc64.hpp"

namespace permbb {
namespace {

TEST(CheckpointCrc64, MatchesTheCatalogueCheckValue) {
  // CRC-64/XZ check value from the CRC catalogue (reveng): crc("123456789").
  EXPECT_EQ(crc64("123456789", 9), 0x995DC9BBDF1939FAULL);
  EXPECT_EQ(crc64("", 0), 0u);
}

// The definition, one bit at a time: reflected input and output, initial value and final xor
// all ones, polynomial 0x42F0E1EBA9EA3693 (reflected: 0xC96C5795D7870F42).
std::uint64_t bitwise_crc64(const std::vector<std::uint8_t>& bytes) {
  std::uint64_t r = ~0ULL;
  for (std::uint8_t byte : bytes) {
    r ^= byte;
    for (int bit = 0; bit < 8; ++bit) r = (r & 1) ? (r >> 1) ^ 0xC96C5795D7870F42ULL : r >> 1;
  }
  return ~r;
}

TEST(CheckpointCrc64, MatchesTheBitwiseDefinition) {
  std::mt19937 rng(64);
  std::uniform_int_distribution<int> byte(0, 255);
  for (std::size_t length = 0; length < 100; ++length) {
    std::vector<std::uint8_t> bytes(length);
    for (auto& b : bytes) b = static_cast<std::uint8_t>(byte(rng));
    EXPECT_EQ(crc64(bytes.data(), bytes.size()), bitwise_crc64(bytes)) << length;
  }
}

TEST(CheckpointCrc64, CanBeComputedInPieces) {
  const std::string text = "the quick brown fox jumps over the lazy dog";
  const std::uint64_t whole = crc64(text.data(), text.size());
  for (std::size_t cut = 0; cut <= text.size(); cut += 7) {
    EXPECT_EQ(crc64(text.data() + cut, text.size() - cut, crc64(text.data(), cut)), whole);
  }
}

}  // namespace
}  // namespace permbb
