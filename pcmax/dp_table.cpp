#include "dp_table.hpp"

namespace permbb::pcmax {

DpTable::DpTable(std::uint64_t entries, int entry_bytes)
    : size_(entries), entry_bytes_(entry_bytes) {
  if (entry_bytes != 1 && entry_bytes != 2 && entry_bytes != 4) {
    throw std::invalid_argument("DpTable: entries are 1, 2 or 4 bytes");
  }
  storage_.reset(new std::uint64_t[(bytes() + 7) / 8]);
}

std::uint32_t DpTable::at(std::uint64_t index) const {
  if (index >= size_) throw std::out_of_range("DpTable::at");
  return with_entries(*this, [&](auto* entries) { return std::uint32_t{entries[index]}; });
}

}  // namespace permbb::pcmax
