// SearchCut's nested records (explored below the cut depth, counted inclusively:
// docs/audit.md, "Split where heavy"): parts adding up, exclusive counts, folding, absorption
// under pruned nodes, and their bytes in checkpoints and messages. The records are made up by
// hand: every expected figure is a sum or difference worked out in the comments.
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "byte_buffer.hpp"
#include "cut_record_codec.hpp"
#include "search_cut.hpp"

namespace permbb {
namespace {

// Paths of jobs fixed in front.
CutPath front_path(std::initializer_list<int> jobs) {
  CutPath path;
  for (const int job : jobs) path.push_back(cut_step(job, 0));
  return path;
}

CutRecord explored_part(CutPath path, std::uint64_t nodes, std::uint64_t leaves,
                        Time ub_start = 60, Time ub_end = 60, Time best = kInfiniteTime) {
  CutRecord r;
  r.path = std::move(path);
  r.nodes = {nodes, leaves};
  r.ub_start = ub_start;
  r.ub_end = ub_end;
  r.best = best;
  return r;
}

CutRecord pruned_node(CutPath path, Time bound) {
  CutRecord r;
  r.path = std::move(path);
  r.pruned = true;
  r.bound = bound;
  return r;
}

void expect_explored(const CutSubproblem& s, const std::vector<int>& prefix,
                     std::uint64_t nodes, std::uint64_t leaves) {
  std::string where = "subproblem";
  for (const int job : prefix) where += ' ' + std::to_string(job);
  EXPECT_FALSE(s.pruned) << where;
  EXPECT_EQ(s.prefix, prefix) << where;
  EXPECT_EQ(s.nodes.decomposed, nodes) << where;
  EXPECT_EQ(s.nodes.leaves, leaves) << where;
}

// What check 5 adds up: every subproblem's count and the nodes above the cut.
NodeCounters counted(const CutPartition& cut) {
  NodeCounters sum{cut.nodes_above_cut, 0};
  for (const CutSubproblem& s : cut.subproblems) sum += s.nodes;
  return sum;
}

// Depth 1, jobs 0..3: the root, (0) explored with the nested (0,1) and (0,1,2) below it, (1)
// explored, (2) and (3) pruned: 1 + 100 + 10 = 111 nodes, 20 + 2 = 22 leaves in all.
std::vector<CutRecord> two_levels(std::uint64_t nested_01, std::uint64_t nested_012) {
  return {explored_part({}, 1, 0),
          explored_part(front_path({0}), 100, 20),
          explored_part(front_path({0, 1}), nested_01, 8),
          explored_part(front_path({0, 1, 2}), nested_012, 5),
          explored_part(front_path({1}), 10, 2),
          pruned_node(front_path({2}), 70),
          pruned_node(front_path({3}), 70)};
}

TEST(SearchCutNested, PartsOfTwoExplorersAddUp) {
  // Explorer A: (0) 30 nodes 6 leaves, bounds 60..58, best 59, its nested (0,1) 12 and 3,
  // 60..59, best 61; explorer B (it stole inside (0,1)): (0) 20 and 4, 58..55, best 57, (0,1)
  // 8 and 2, 58..56, best 58. Merged: (0,1) 20 and 5, 60..56, best 58; (0) (30 + 20) - 20 =
  // 30 nodes, (6 + 4) - 5 = 5 leaves, 60..55, best 57 (its whole subtree's). (0,1) ends at
  // its container's 55 (bound_nested_by_containers).
  SearchCut cut(1);
  cut.add({explored_part({}, 1, 0), explored_part(front_path({0}), 30, 6, 60, 58, 59),
           explored_part(front_path({0, 1}), 12, 3, 60, 59, 61),
           pruned_node(front_path({1}), 70), pruned_node(front_path({2}), 70)});
  cut.add({explored_part(front_path({0}), 20, 4, 58, 55, 57),
           explored_part(front_path({0, 1}), 8, 2, 58, 56, 58)});
  const CutPartition p = cut.partition();
  ASSERT_EQ(p.subproblems.size(), 4u);
  EXPECT_EQ(p.nodes_above_cut, 1u);
  expect_explored(p.subproblems[0], {0}, 30, 5);
  EXPECT_EQ(p.subproblems[0].ub_start, 60);
  EXPECT_EQ(p.subproblems[0].ub_end, 55);
  EXPECT_EQ(p.subproblems[0].best, 57);
  expect_explored(p.subproblems[1], {0, 1}, 20, 5);
  EXPECT_EQ(p.subproblems[1].ub_start, 60);
  EXPECT_EQ(p.subproblems[1].ub_end, 55);
  EXPECT_EQ(p.subproblems[1].best, 58);
  EXPECT_TRUE(p.subproblems[2].pruned);
  EXPECT_EQ(counted(p), (NodeCounters{1 + 30 + 20, 6 + 4}));
}

TEST(SearchCutNested, ANestedRecordEndsNoHigherThanItsContainer) {
  // Explorer A explored (0,1,2) and (0,1) at 60 and was paused inside (0,1,2): its parts of
  // (0), (0,1) and (0,1,2) close at 60. The interval left restarts at 52, and its replay
  // stops at (0,1) itself, pruned at 52 with the rest of (0,1,2); it opens (0) at 52, and names
  // neither (0,1) nor (0,1,2). Re-explored at 60, the rest of (0,1) and (0,1,2) would hold
  // nodes that no record counts: each ends at 52, as the container (0) does, where the audit
  // prunes them as the replay did. (0) keeps 40 - 20 = 20 nodes, (0,1) 20 - 9 = 11.
  SearchCut cut(1);
  cut.add({explored_part({}, 1, 0), explored_part(front_path({0}), 40, 8, 60, 60),
           explored_part(front_path({0, 1}), 20, 4, 60, 60),
           explored_part(front_path({0, 1, 2}), 9, 2, 60, 60), pruned_node(front_path({1}), 70),
           pruned_node(front_path({2}), 70), pruned_node(front_path({3}), 70)});
  cut.add(explored_part(front_path({0}), 0, 0, 52, 52));
  const CutPartition p = cut.partition();
  ASSERT_EQ(p.subproblems.size(), 6u);
  expect_explored(p.subproblems[0], {0}, 20, 4);
  expect_explored(p.subproblems[1], {0, 1}, 11, 2);
  expect_explored(p.subproblems[2], {0, 1, 2}, 9, 2);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(p.subproblems[i].ub_start, 60) << i;
    EXPECT_EQ(p.subproblems[i].ub_end, 52) << i;
  }
  EXPECT_EQ(counted(p), (NodeCounters{1 + 40, 8}));
}

TEST(SearchCutNested, CountsAreExclusiveAcrossTwoLevels) {
  // (0) 100 and 20 holds (0,1) 50 and 12, which holds (0,1,2) 30 and 7, and (0 | 2), 5 and 1
  // (job 2 fixed at the back): (0) 100 - 50 - 5 = 45 and 20 - 12 - 1 = 7, (0,1) 50 - 30 = 20
  // and 12 - 7 = 5, the deepest ones whole.
  SearchCut cut(1);
  cut.add({explored_part({}, 1, 0), explored_part(front_path({0}), 100, 20),
           explored_part(front_path({0, 1}), 50, 12),
           explored_part(front_path({0, 1, 2}), 30, 7),
           explored_part({cut_step(0, 0), cut_step(2, 1)}, 5, 1),
           explored_part(front_path({1}), 10, 2), pruned_node(front_path({2}), 70),
           pruned_node(front_path({3}), 70)});
  const CutPartition p = cut.partition();
  ASSERT_EQ(p.subproblems.size(), 7u);
  expect_explored(p.subproblems[0], {0}, 45, 7);
  expect_explored(p.subproblems[1], {0, 1}, 20, 5);
  expect_explored(p.subproblems[2], {0, 1, 2}, 30, 7);
  expect_explored(p.subproblems[3], {0}, 5, 1);
  EXPECT_EQ(p.subproblems[3].suffix, (std::vector<int>{2}));
  expect_explored(p.subproblems[4], {1}, 10, 2);
  EXPECT_EQ(counted(p), (NodeCounters{111, 22}));
}

TEST(SearchCutNested, LightNestedRecordsFoldIntoTheRecordAboveThem) {
  // two_levels with (0,1) 50 and 8, (0,1,2) 30 and 5. Below 31 nodes (0,1,2) folds into
  // (0,1): (0) 100 - 50 = 50 and 20 - 8 = 12, (0,1) whole; below 51 both fold into (0).
  SearchCut cut(1);
  cut.add(two_levels(50, 30));
  const CutPartition all = cut.partition(0, 0);
  ASSERT_EQ(all.subproblems.size(), 6u);
  expect_explored(all.subproblems[0], {0}, 50, 12);
  expect_explored(all.subproblems[1], {0, 1}, 20, 3);
  const CutPartition folded = cut.partition(0, 31);
  ASSERT_EQ(folded.subproblems.size(), 5u);
  expect_explored(folded.subproblems[0], {0}, 50, 12);
  expect_explored(folded.subproblems[1], {0, 1}, 50, 8);
  const CutPartition none = cut.partition(0, 51);
  ASSERT_EQ(none.subproblems.size(), 4u);
  expect_explored(none.subproblems[0], {0}, 100, 20);
  for (const CutPartition* p : {&all, &folded, &none}) {
    EXPECT_EQ(counted(*p), (NodeCounters{111, 22}));
  }
}

TEST(SearchCutNested, AKeptRecordUnderAFoldedOneIsTakenFromTheNearestKept) {
  // Not what a recording gives (a node's total is at least its descendants'), but the
  // arithmetic must not rely on it: (0,1) 30 and 8 folds below 35, (0,1,2) 40 and 5 stays,
  // so (0) keeps 100 - 40 = 60 and 20 - 5 = 15. Kept, (0,1) would count 30 - 40 < 0: thrown.
  SearchCut cut(1);
  cut.add(two_levels(30, 40));
  const CutPartition p = cut.partition(0, 35);
  ASSERT_EQ(p.subproblems.size(), 5u);
  expect_explored(p.subproblems[0], {0}, 60, 15);
  expect_explored(p.subproblems[1], {0, 1, 2}, 40, 5);
  EXPECT_EQ(counted(p), (NodeCounters{111, 22}));
  try {
    cut.partition();
    ADD_FAILURE() << "a negative exclusive count was written";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("nested in 1 2 |"), std::string::npos) << e.what();
  }
}

TEST(SearchCutNested, ANestedRecordWithoutItsRecordAtTheDepthThrows) {
  SearchCut cut(1);
  cut.add({explored_part({}, 1, 0), explored_part(front_path({0, 1}), 5, 1)});
  EXPECT_THROW(cut.partition(), std::logic_error);
}

TEST(SearchCutNested, APrunedNodeAbsorbsNestedRecordsOnce) {
  // Depth 2. Explorer A decomposed the root, (0) and (1), explored (0,1) (40 and 9, with the
  // nested (0,1,2) 25 and 6 and (0,1,2,3) 10 and 2), (0,2) (7 and 1) and (1,0) (20 and 5,
  // with the nested (1,0,2) 12 and 3) and (1,2) (6 and 1): 76 nodes, 16 leaves. Replaying
  // after splits, B pruned (0) and C pruned (1,0). Surpluses: (0) 1 + 40 + 7 = 48 and
  // 9 + 1 = 10 (not 83 and 18 with its nested records), (1,0) 20 and 5 (not 32 and 8).
  SearchCut cut(2);
  cut.add({explored_part({}, 1, 0), explored_part(front_path({0}), 1, 0),
           explored_part(front_path({0, 1}), 40, 9),
           explored_part(front_path({0, 1, 2}), 25, 6),
           explored_part(front_path({0, 1, 2, 3}), 10, 2),
           explored_part(front_path({0, 2}), 7, 1), explored_part(front_path({1}), 1, 0),
           explored_part(front_path({1, 0}), 20, 5),
           explored_part(front_path({1, 0, 2}), 12, 3),
           explored_part(front_path({1, 2}), 6, 1)});
  cut.add(pruned_node(front_path({0}), 70));
  cut.add(pruned_node(front_path({1, 0}), 65));
  const CutPartition p = cut.partition();
  EXPECT_EQ(p.nodes_above_cut, 2u);  // the root and (1)
  ASSERT_EQ(p.subproblems.size(), 3u);
  EXPECT_TRUE(p.subproblems[0].pruned);
  EXPECT_EQ(p.subproblems[0].bound, 70);
  EXPECT_EQ(p.subproblems[0].nodes, (NodeCounters{48, 10}));
  EXPECT_TRUE(p.subproblems[1].pruned);
  EXPECT_EQ(p.subproblems[1].nodes, (NodeCounters{20, 5}));
  expect_explored(p.subproblems[2], {1, 2}, 6, 1);
  EXPECT_EQ(counted(p), (NodeCounters{76, 16}));
}

TEST(SearchCutNested, ASubtreeWithAKeptNestedRecordIsNotMerged) {
  // Depth 2: the root, (0) over (0,1) 5 and 1 (nested (0,1,2) 3 and 1) and (0,2) 4 and 1,
  // (1) over (1,0) 6 and 2 and (1,2) 2 and 1, (2) pruned. Merged up to 1000, (1) becomes one
  // subproblem of 1 + 6 + 2 = 9 nodes and 3 leaves; (0) stays apart while (0,1,2) is kept,
  // and merges into 1 + 5 + 4 = 10 and 2 once it folds (below 4 nodes).
  SearchCut cut(2);
  cut.add({explored_part({}, 1, 0), explored_part(front_path({0}), 1, 0),
           explored_part(front_path({0, 1}), 5, 1),
           explored_part(front_path({0, 1, 2}), 3, 1),
           explored_part(front_path({0, 2}), 4, 1), explored_part(front_path({1}), 1, 0),
           explored_part(front_path({1, 0}), 6, 2), explored_part(front_path({1, 2}), 2, 1),
           pruned_node(front_path({2}), 70)});
  const CutPartition kept = cut.partition(1000);
  EXPECT_EQ(kept.nodes_above_cut, 2u);  // the root and (0)
  ASSERT_EQ(kept.subproblems.size(), 5u);
  expect_explored(kept.subproblems[0], {0, 1}, 2, 0);
  expect_explored(kept.subproblems[1], {0, 1, 2}, 3, 1);
  expect_explored(kept.subproblems[2], {0, 2}, 4, 1);
  expect_explored(kept.subproblems[3], {1}, 9, 3);
  const CutPartition folded = cut.partition(1000, 4);
  EXPECT_EQ(folded.nodes_above_cut, 1u);
  ASSERT_EQ(folded.subproblems.size(), 3u);
  expect_explored(folded.subproblems[0], {0}, 10, 2);
  expect_explored(folded.subproblems[1], {1}, 9, 3);
  for (const CutPartition* p : {&kept, &folded}) EXPECT_EQ(counted(*p), (NodeCounters{20, 5}));
}

TEST(SearchCutNested, SnapshotsAndTheirBytesCarryNestedRecords) {
  // Two links of a chain, or two ranks: the first's snapshot, through the checkpoint's bytes,
  // then the second's parts, give what all parts added at once give. A path of 260 steps
  // (an instance of 300 jobs), nested in (0,1), takes the codec's long form.
  CutPath long_path;
  for (int job = 0; job < 260; ++job) long_path.push_back(cut_step(job, job < 2 ? 0 : job % 2));
  const std::vector<CutRecord> first = {explored_part({}, 1, 0),
                                        explored_part(front_path({0}), 400, 90, 60, 58, 59),
                                        explored_part(front_path({0, 1}), 300, 70, 60, 59, 61),
                                        explored_part(long_path, 1, 1, 60, 60, 62),
                                        pruned_node(front_path({1}), 70)};
  const std::vector<CutRecord> second = {explored_part(front_path({0}), 50, 9, 58, 57, 58),
                                         explored_part(front_path({0, 1}), 20, 4, 58, 57, 58)};
  SearchCut one(1);
  one.add(first);
  ByteWriter out;
  put_cut_records(out, one.snapshot());
  ByteReader in(out.bytes().data(), out.size(), "test");
  const CutRecords carried = get_cut_records(in, 300);
  EXPECT_TRUE(in.at_end());
  EXPECT_EQ(carried, one.snapshot());
  std::optional<SearchCut> next = search_cut_of(carried);
  next->add(second);
  SearchCut whole(1);
  whole.add(first);
  whole.add(second);
  EXPECT_EQ(next->snapshot(), whole.snapshot());
  // (0): 450 - 320 = 130 nodes, 99 - 74 = 25 leaves; (0,1): 320 - 1 = 319 and 74 - 1 = 73.
  const CutPartition p = next->partition();
  ASSERT_EQ(p.subproblems.size(), 4u);
  expect_explored(p.subproblems[0], {0}, 130, 25);
  expect_explored(p.subproblems[1], {0, 1}, 319, 73);
  EXPECT_EQ(p.subproblems[2].prefix.size() + p.subproblems[2].suffix.size(), 260u);
}

// A node below D that no explorer entered (each part started inside it; the IVM whose interval
// held its start pruned it under a bound that fell meanwhile): its own decomposition is in no
// count, so it is never a subproblem; its parts fold into the record above it, which counts
// them. A part that entered it makes it one again. The flag goes through the codec's bytes.
TEST(SearchCutNested, ANodeNoExplorerEnteredFoldsIntoTheRecordAboveIt) {
  // two_levels with (0,1) 50 and 8 only started inside, (0,1,2) 30 and 5 entered: (0)
  // 100 - 30 = 70 and 20 - 5 = 15, (0,1,2) 30 and 5 whole.
  std::vector<CutRecord> records = two_levels(50, 30);
  records[2].entered = false;
  SearchCut cut(1);
  cut.add(records);
  const CutPartition p = cut.partition(0, 0);
  ASSERT_EQ(p.subproblems.size(), 5u);
  expect_explored(p.subproblems[0], {0}, 70, 15);
  expect_explored(p.subproblems[1], {0, 1, 2}, 30, 5);
  EXPECT_EQ(counted(p), (NodeCounters{111, 22}));
  ByteWriter out;
  put_cut_records(out, cut.snapshot());
  ByteReader in(out.bytes().data(), out.size(), "test");
  EXPECT_EQ(get_cut_records(in, 4), cut.snapshot());
  CutRecord entering = explored_part(front_path({0, 1}), 4, 0);
  cut.add(entering);  // another explorer's part, which entered (0,1): (0,1) is kept
  EXPECT_EQ(cut.partition(0, 0).subproblems.size(), 6u);
}

TEST(SearchCutNested, TheCodecsLongFormIsOnlyForLongPaths) {
  // One record of one step, its length in the short form or the long: the long one is
  // refused, so that decoded bytes re-encode to themselves (as the fuzzers require).
  const auto one_step = [](bool long_form) {
    ByteWriter out;
    out.put(std::uint32_t{1});  // the depth
    out.put(std::uint64_t{1});  // the records
    out.put(static_cast<std::uint8_t>(long_form ? 255 : 1));  // the path's length
    if (long_form) out.put(std::uint16_t{1});
    out.put(cut_step(0, 0));
    out.put(std::uint8_t{0});   // explored
    out.put(std::int32_t{0});   // bound
    out.put(std::uint64_t{1});  // nodes
    out.put(std::uint64_t{0});  // leaves
    for (int i = 0; i < 3; ++i) out.put(std::int32_t{60});  // ub_start, ub_end, best
    return out.bytes();
  };
  const auto decode = [](const std::vector<std::uint8_t>& bytes) {
    ByteReader in(bytes.data(), bytes.size(), "test");
    return get_cut_records(in, 300);
  };
  EXPECT_EQ(decode(one_step(false)).records.size(), 1u);
  EXPECT_THROW(decode(one_step(true)), std::runtime_error);
}

TEST(SearchCutNested, APrunedRecordBelowTheDepthIsRefused) {
  SearchCut cut(1);
  cut.add(explored_part(front_path({0, 1}), 5, 1));  // explored: nested, accepted
  EXPECT_EQ(cut.records(), 1u);
  EXPECT_THROW(cut.add(pruned_node(front_path({0, 2}), 70)), std::logic_error);
  EXPECT_THROW(cut.add(CutRecords{1, {pruned_node(front_path({0, 2}), 70)}}), std::logic_error);
  // And from bytes (a checkpoint, a message): malformed.
  ByteWriter out;
  put_cut_records(out, CutRecords{1, {pruned_node(front_path({0, 2}), 70)}});
  ByteReader in(out.bytes().data(), out.size(), "test");
  EXPECT_THROW(get_cut_records(in, 4), std::runtime_error);
}

}  // namespace
}  // namespace permbb
