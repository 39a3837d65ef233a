#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include <gmpxx.h>

namespace permbb {

// A growable byte buffer for messages and checkpoint files. Integers are written in
// little-endian order whatever the host, GMP integers as a length followed by their
// magnitude in binary (mpz_export, least significant byte first): compact and exact, never
// decimal strings (2022 §4.1.1 names the marshalling as the coordinator's cost); the
// magnitude is written in 64-bit words (a byte count that is a multiple of 8), the fewest that
// hold it: the one encoding ByteReader accepts.
class ByteWriter {
 public:
  template <class T>
  void put(T value) {
    static_assert(std::is_integral_v<T> || std::is_enum_v<T>);
    using U = std::make_unsigned_t<std::conditional_t<std::is_enum_v<T>, int, T>>;
    U bits = static_cast<U>(value);
    for (size_t i = 0; i < sizeof(U); ++i) bytes_.push_back(static_cast<std::uint8_t>(bits >> (8 * i)));
  }
  void put_double(double value);
  void put_string(const std::string& text);
  // Non-negative integers only (intervals of [0, n!)).
  void put_mpz(const mpz_class& value);
  void put_bytes(const void* data, size_t size);

  const std::vector<std::uint8_t>& bytes() const { return bytes_; }
  std::vector<std::uint8_t>& bytes() { return bytes_; }
  size_t size() const { return bytes_.size(); }

 private:
  std::vector<std::uint8_t> bytes_;
};

// Reads what ByteWriter wrote. Reading past the end or a malformed value throws
// std::runtime_error naming `what` (the message or file being read) and the offset.
class ByteReader {
 public:
  ByteReader(const std::uint8_t* data, size_t size, std::string what)
      : data_(data), size_(size), what_(std::move(what)) {}

  template <class T>
  T get() {
    static_assert(std::is_integral_v<T> || std::is_enum_v<T>);
    using U = std::make_unsigned_t<std::conditional_t<std::is_enum_v<T>, int, T>>;
    need(sizeof(U));
    U bits = 0;
    for (size_t i = 0; i < sizeof(U); ++i) bits |= static_cast<U>(static_cast<U>(data_[offset_ + i]) << (8 * i));
    offset_ += sizeof(U);
    return static_cast<T>(bits);
  }
  double get_double();
  std::string get_string();
  mpz_class get_mpz();
  // Reads into `out`, reusing its storage (no allocation once it is large enough).
  void get_mpz(mpz_class& out);
  void get_bytes(void* out, size_t size);

  size_t offset() const { return offset_; }
  size_t remaining() const { return size_ - offset_; }
  bool at_end() const { return offset_ == size_; }

 private:
  void need(size_t count) const;

  const std::uint8_t* data_;
  size_t size_;
  size_t offset_ = 0;
  std::string what_;
};

}  // namespace permbb
