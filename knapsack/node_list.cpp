#include "node_list.hpp"

#include "node_bounds.hpp"
#include "node_branching.hpp"

namespace permbb::knapsack {

void NodeList::resize(std::int64_t count) {
  const auto n = static_cast<std::size_t>(count);
  weight_.resize(n);
  profit_.resize(n);
  slack_.resize(n);
  upper_.resize(n);
  lower_.resize(n);
  excluded_.resize(n * static_cast<std::size_t>(words_));
}

NodeArrays NodeList::arrays() {
  return {weight_.data(), profit_.data(),   slack_.data(), upper_.data(),
          lower_.data(),  excluded_.data(), words_};
}

NodeRecord NodeList::record(std::int64_t j) const {
  const auto first = excluded_.begin() + j * words_;
  return {weight_[j], profit_[j], slack_[j],
          upper_[j],  lower_[j],  std::vector<std::uint64_t>(first, first + words_)};
}

void NodeList::append(const NodeRecord& node) {
  weight_.push_back(node.weight);
  profit_.push_back(node.profit);
  slack_.push_back(node.slack);
  upper_.push_back(node.upper);
  lower_.push_back(node.lower);
  for (int w = 0; w < words_; ++w) {
    excluded_.push_back(w < static_cast<int>(node.excluded.size()) ? node.excluded[w] : 0);
  }
}

NodeList NodeList::split_tail(std::int64_t keep) {
  NodeList tail(words_);
  if (keep >= size()) return tail;
  tail.resize(size() - keep);
  const NodeArrays from = arrays();
  const NodeArrays to = tail.arrays();
  for (std::int64_t j = keep; j < size(); ++j) copy_node(from, j, to, j - keep);
  resize(keep);
  return tail;
}

void NodeList::retain_above(std::int64_t best_lower) {
  const NodeArrays nodes = arrays();
  retain_if([&](std::int64_t j) { return keep_node(nodes, j, best_lower); });
}

NodeList root_list(const ItemTable& items) {
  NodeList root(items.words_per_node());
  root.resize(1);
  bound_node(items.view(), root.arrays(), 0, 0);
  return root;
}

}  // namespace permbb::knapsack
