#pragma once
#include "item_table.hpp"
#include "list_backend.hpp"

namespace permbb::knapsack {

// The node list in host memory, levels processed by one CPU thread (the paper's "host" part,
// used for small lists). `items` must outlive the backend.
class HostListBackend final : public LevelListBackend {
 public:
  explicit HostListBackend(const ItemTable& items, const char* name = "cpu");

  const char* name() const override { return name_; }
  std::int64_t size() const override { return list_.size(); }
  void assign(NodeList nodes) override { list_ = std::move(nodes); }
  NodeList release() override;
  NodeList split_tail(std::int64_t keep) override { return list_.split_tail(keep); }
  LevelOutcome step(int item, std::int64_t best_lower) override;

 private:
  ItemsView items_;
  int words_;
  const char* name_;
  NodeList list_;
};

}  // namespace permbb::knapsack
