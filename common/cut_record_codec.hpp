#pragma once
// The binary form of cut records (cut_record.hpp), shared by the checkpoint file and the
// cluster's messages, so that records cross a restart or a rank the same way:
//
//   uint32 depth D, uint64 record count R, then R records, their paths strictly increasing:
//     uint8  path length L (0..254), or 255 then uint16 L (255..): L x int16 steps (job *
//            2 + direction); L > D for a nested record (explored, below the depth)
//     uint8  pruned (0 or 1), int32 bound
//     uint64 nodes decomposed, uint64 leaves
//     int32  ub_start, int32 ub_end, int32 best
//
// The decoder is strict: a depth outside [0, jobs-1], a path of more steps than jobs, a step
// naming a job outside [0, jobs) or twice, a flag other than 0 or 1, a pruned record below
// the depth, paths out of order or repeated, or a count that the bytes left cannot hold
// throws std::runtime_error naming the record.
#include "byte_buffer.hpp"
#include "cut_record.hpp"

namespace permbb {

void put_cut_records(ByteWriter& out, const CutRecords& cut);
CutRecords get_cut_records(ByteReader& in, int jobs);

}  // namespace permbb
