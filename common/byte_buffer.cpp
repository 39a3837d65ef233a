#include "byte_buffer.hpp"

#include <algorithm>
#include <stdexcept>

namespace permbb {

void ByteWriter::put_double(double value) {
  std::uint64_t bits = 0;
  static_assert(sizeof(bits) == sizeof(value));
  std::memcpy(&bits, &value, sizeof(bits));
  put(bits);
}

void ByteWriter::put_string(const std::string& text) {
  put(static_cast<std::uint32_t>(text.size()));
  put_bytes(text.data(), text.size());
}

// The magnitude goes out in whole little-endian 64-bit words (least significant first):
// GMP copies words at memory speed where it converts byte by byte otherwise, and the
// coordinator converts tens of thousands of integers per checkpoint (§4.1.1).
void ByteWriter::put_mpz(const mpz_class& value) {
  if (sgn(value) < 0) throw std::invalid_argument("ByteWriter::put_mpz: negative integer");
  const size_t words = sgn(value) == 0 ? 0 : (mpz_sizeinbase(value.get_mpz_t(), 2) + 63) / 64;
  put(static_cast<std::uint32_t>(8 * words));
  if (words == 0) return;
  const size_t at = bytes_.size();
  bytes_.resize(at + 8 * words);
  size_t written = 0;
  mpz_export(bytes_.data() + at, &written, -1, 8, -1, 0, value.get_mpz_t());
}

void ByteWriter::put_bytes(const void* data, size_t size) {
  const auto* p = static_cast<const std::uint8_t*>(data);
  bytes_.insert(bytes_.end(), p, p + size);
}

void ByteReader::need(size_t count) const {
  if (count > size_ - offset_) {
    throw std::runtime_error(what_ + ": truncated at byte " + std::to_string(offset_) +
                             " (needs " + std::to_string(count) + " more, has " +
                             std::to_string(size_ - offset_) + ")");
  }
}

double ByteReader::get_double() {
  const auto bits = get<std::uint64_t>();
  double value = 0;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

std::string ByteReader::get_string() {
  const auto length = get<std::uint32_t>();
  need(length);
  std::string text(reinterpret_cast<const char*>(data_ + offset_), length);
  offset_ += length;
  return text;
}

mpz_class ByteReader::get_mpz() {
  mpz_class value;
  get_mpz(value);
  return value;
}

// Only the form put_mpz writes is read: whole 64-bit words, the most significant one not zero
// (zero has no words). Each integer then has one encoding, so a decoded message or checkpoint
// re-encodes to the bytes it came from; padded or byte-sized forms are refused as malformed.
void ByteReader::get_mpz(mpz_class& out) {
  const size_t at = offset_;
  const auto count = get<std::uint32_t>();
  need(count);
  if (count % 8 != 0) {
    throw std::runtime_error(what_ + ": the integer at byte " + std::to_string(at) + " takes " +
                             std::to_string(count) + " bytes, not whole 64-bit words");
  }
  if (count == 0) {
    out = 0;
    return;
  }
  const std::uint8_t* top = data_ + offset_ + count - 8;
  if (std::all_of(top, top + 8, [](std::uint8_t b) { return b == 0; })) {
    throw std::runtime_error(what_ + ": the integer at byte " + std::to_string(at) +
                             " has a zero most significant word");
  }
  mpz_import(out.get_mpz_t(), count / 8, -1, 8, -1, 0, data_ + offset_);
  offset_ += count;
}

void ByteReader::get_bytes(void* out, size_t size) {
  need(size);
  std::memcpy(out, data_ + offset_, size);
  offset_ += size;
}

}  // namespace permbb
