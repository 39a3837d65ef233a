#pragma once
// CRC-64/XZ (also called CRC-64/GO-ECMA): the ECMA-182 polynomial 0x42F0E1EBA9EA3693 in
// reflected form (0xC96C5795D7870F42), initial value and final xor all ones. It is the
// checksum of xz and Go's hash/crc64 with the ECMA table; its catalogue check value is
// crc64("123456789") = 0x995DC9BBDF1939FA. The checkpoint file stores it over its payload
// (checkpoint_file.hpp): it detects every burst error of up to 64 bits, so any flipped byte.
//
// Table-driven, eight bytes per step (slicing-by-8): a 500 MB checkpoint costs a fraction of a
// second, less than writing it.
#include <cstddef>
#include <cstdint>

namespace permbb {

// The CRC of data[0..size-1]. To checksum in pieces, pass the previous result as `crc`:
// crc64(b, nb, crc64(a, na)) == crc64(a ‖ b).
std::uint64_t crc64(const void* data, std::size_t size, std::uint64_t crc = 0);

}  // namespace permbb
