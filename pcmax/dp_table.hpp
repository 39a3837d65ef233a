#pragma once
// A DP table in host memory: row-major entries of 1, 2 or 4 bytes (dp_problem.hpp picks the
// width), uninitialised until a DP fills it. with_entries() hands code templated on the entry
// type the typed pointer.
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <type_traits>

namespace permbb::pcmax {

class DpTable {
 public:
  DpTable(std::uint64_t entries, int entry_bytes);

  std::uint64_t size() const { return size_; }
  int entry_bytes() const { return entry_bytes_; }
  std::uint64_t bytes() const { return size_ * static_cast<std::uint64_t>(entry_bytes_); }
  void* data() { return storage_.get(); }
  const void* data() const { return storage_.get(); }

  std::uint32_t at(std::uint64_t index) const;

 private:
  std::uint64_t size_;
  int entry_bytes_;
  std::unique_ptr<std::uint64_t[]> storage_;  // 8-byte words: aligned for every width
};

// f(Entry* entries) with Entry = uint8_t, uint16_t or uint32_t as the table's width says.
template <class Table, class F>
decltype(auto) with_entries(Table& table, F&& f) {
  using Byte = std::conditional_t<std::is_const_v<Table>, const std::uint8_t, std::uint8_t>;
  using Half = std::conditional_t<std::is_const_v<Table>, const std::uint16_t, std::uint16_t>;
  using Word = std::conditional_t<std::is_const_v<Table>, const std::uint32_t, std::uint32_t>;
  switch (table.entry_bytes()) {
    case 1:
      return f(static_cast<Byte*>(table.data()));
    case 2:
      return f(static_cast<Half*>(table.data()));
    default:
      return f(static_cast<Word*>(table.data()));
  }
}

}  // namespace permbb::pcmax
