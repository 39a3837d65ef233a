#include "local_steals.hpp"

#include <algorithm>
#include <numeric>

namespace permbb::scale {
namespace {

// The shortest length a victim may have: the mean of the busy pieces' lengths under the mean
// rule; two permutations (a piece that can be halved) under the largest rule.
mpz_class victim_threshold(const std::vector<mpz_class>& lengths, StealRule rule) {
  if (rule == StealRule::kLargest || lengths.empty()) return 2;
  mpz_class sum = std::accumulate(lengths.begin(), lengths.end(), mpz_class(0));
  mpz_class mean = sum / static_cast<unsigned long>(lengths.size());
  return std::max(mean, mpz_class(2));
}

}  // namespace

int steal_phase(std::vector<Piece>& pieces, int capacity, StealRule rule, const WorkModel& model) {
  const int thieves = capacity - static_cast<int>(pieces.size());
  if (thieves <= 0 || pieces.empty()) return 0;
  std::vector<mpz_class> lengths;
  lengths.reserve(pieces.size());
  for (const Piece& piece : pieces) lengths.push_back(piece.interval.end - piece.interval.begin);
  const mpz_class threshold = victim_threshold(lengths, rule);
  std::vector<std::size_t> victims;
  for (std::size_t j = 0; j < pieces.size(); ++j) {
    if (lengths[j] >= threshold) victims.push_back(j);
  }
  const std::size_t steals = std::min(victims.size(), static_cast<std::size_t>(thieves));
  std::partial_sort(victims.begin(), victims.begin() + static_cast<std::ptrdiff_t>(steals),
                    victims.end(),
                    [&](std::size_t a, std::size_t b) { return lengths[a] > lengths[b]; });
  for (std::size_t k = 0; k < steals; ++k) {
    Piece& victim = pieces[victims[k]];
    mpz_class middle = victim.interval.begin + victim.interval.end;
    mpz_fdiv_q_2exp(middle.get_mpz_t(), middle.get_mpz_t(), 1);
    const std::uint64_t taken = model.nodes_in(middle, victim.interval.end);
    Piece thief{{middle, victim.interval.end}, taken};
    victim.interval.end = middle;
    victim.nodes -= taken;
    pieces.push_back(std::move(thief));  // invalidates `victim`, not the indices
  }
  return static_cast<int>(steals);
}

void spread(std::vector<Piece>& pieces, int capacity, double trigger, StealRule rule,
            const WorkModel& model) {
  while (static_cast<double>(pieces.size()) < trigger * capacity) {
    if (steal_phase(pieces, capacity, rule, model) == 0) return;
  }
}

}  // namespace permbb::scale
