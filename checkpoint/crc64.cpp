#include "crc64.hpp"

#include <array>

namespace permbb {
namespace {

constexpr std::uint64_t kReflectedPolynomial = 0xC96C5795D7870F42ULL;
using Tables = std::array<std::array<std::uint64_t, 256>, 8>;

// Slicing-by-8 (Kounavis and Berry, 2008). tables[0][b] is the register after shifting byte b
// through it, LSB first; tables[k][b] is that of byte b followed by k zero bytes, so eight
// lookups advance the register by eight bytes at once.
constexpr Tables make_tables() {
  Tables t{};
  for (std::uint64_t b = 0; b < 256; ++b) {
    std::uint64_t r = b;
    for (int bit = 0; bit < 8; ++bit) r = (r & 1) ? (r >> 1) ^ kReflectedPolynomial : r >> 1;
    t[0][b] = r;
  }
  for (int k = 1; k < 8; ++k) {
    for (int b = 0; b < 256; ++b) t[k][b] = (t[k - 1][b] >> 8) ^ t[0][t[k - 1][b] & 0xFF];
  }
  return t;
}

constexpr Tables kTables = make_tables();

}  // namespace

std::uint64_t crc64(const void* data, std::size_t size, std::uint64_t crc) {
  const auto* p = static_cast<const std::uint8_t*>(data);
  std::uint64_t r = ~crc;
  for (; size >= 8; size -= 8, p += 8) {
    std::uint64_t x = r;
    for (int i = 0; i < 8; ++i) x ^= static_cast<std::uint64_t>(p[i]) << (8 * i);
    r = kTables[7][x & 0xFF] ^ kTables[6][(x >> 8) & 0xFF] ^ kTables[5][(x >> 16) & 0xFF] ^
        kTables[4][(x >> 24) & 0xFF] ^ kTables[3][(x >> 32) & 0xFF] ^ kTables[2][(x >> 40) & 0xFF] ^
        kTables[1][(x >> 48) & 0xFF] ^ kTables[0][x >> 56];
  }
  for (; size > 0; --size, ++p) r = kTables[0][(r ^ *p) & 0xFF] ^ (r >> 8);
  return ~r;
}

}  // namespace permbb
