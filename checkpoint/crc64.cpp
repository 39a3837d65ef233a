#include "crc64.hpp"

#include <array>

namespace permbb {
namespace {

constexpr std::uint64_t kReflectedPolynomial = 0xC96C5795D7870F42ULL;

// table[b] is the CRC register after shifting byte b through it, LSB first.
constexpr std::array<std::uint64_t, 256> make_table() {
  std::array<std::uint64_t, 256> table{};
  for (std::uint64_t b = 0; b < 256; ++b) {
    std::uint64_t r = b;
    for (int bit = 0; bit < 8; ++bit) r = (r & 1) ? (r >> 1) ^ kReflectedPolynomial : r >> 1;
    table[b] = r;
  }
  return table;
}

constexpr std::array<std::uint64_t, 256> kTable = make_table();

}  // namespace

std::uint64_t crc64(const void* data, std::size_t size, std::uint64_t crc) {
  const auto* p = static_cast<const std::uint8_t*>(data);
  std::uint64_t r = ~crc;
  for (std::size_t i = 0; i < size; ++i) r = kTable[(r ^ p[i]) & 0xFF] ^ (r >> 8);
  return ~r;
}

}  // namespace permbb
