#!/usr/bin/env python3
"""Where the runs of `bench/knapsack_set.py` (--method core) that did not prove their optimum
stopped: one row per such instance, and the same grouped by the generator's parameters.

Per instance: the best value, the upper bound, the gap between them, and where the index knows
combo's optimum, how that gap splits into the lower bound's part (optimum - value: a better
solution exists) and the upper bound's (bound - optimum: the bound does not see that none
does better); the largest state list, the core's size, the capacity searched (below c: the
reachable sums lowered it), and which bound was binding at the stop: `states` (the largest
bound of a state after the last merge) or `cardinality` (the cardinality constraints'
surrogate bound, docs/knapsack.md step 6), with the break solution's Dantzig bound for scale.

Usage:
  bench/knapsack_set_gaps.py RUN.json [RUN.json ...] [--markdown OUT]
"""
import argparse
import json
import sys

from knapsack import markdown_table
from knapsack_set import GROUPINGS, BadArguments, merged_records


def unproved(record):
    return record["method"] == "core" and record["status"] != "optimal"


def binding_bound(record):
    """Which of the two bounds the result's upper bound is; None when unknown."""
    states, cardinality = record.get("states_upper"), record.get("cardinality_upper")
    if states is None:
        return None
    if not cardinality or states <= cardinality:
        return "states"
    return "cardinality"


def gap_parts(record):
    """(gap, lower bound's part, upper bound's part); the parts None without an optimum."""
    value, bound, optimum = record["value"], record["upper_bound"], record["optimum"]
    if value is None or bound is None:
        return None, None, None
    if optimum is None:
        return bound - value, None, None
    return bound - value, optimum - value, bound - optimum


def number(value):
    return "—" if value is None else f"{value:,}"


def instance_rows(records):
    rows = []
    for r in records:
        gap, lower_part, upper_part = gap_parts(r)
        capacity_cut = r["c"] - r["capacity_used"] if r.get("capacity_used") else None
        rows.append([r["name"], r["status"], number(r["value"]), number(r["upper_bound"]),
                     number(gap), number(lower_part), number(upper_part),
                     number(r.get("largest_state_list")),
                     f"{r.get('core_size')}/{r['n']}", number(capacity_cut),
                     binding_bound(r) or "—",
                     number(r["upper_bound"] - r["dantzig_upper"]
                            if r.get("dantzig_upper") else None)])
    return rows


INSTANCE_COLUMNS = ["instance", "status", "value", "bound", "gap", "optimum - value",
                    "bound - optimum", "largest list", "core", "c - capacity searched",
                    "binding", "bound - Dantzig"]


def median(values):
    values = sorted(v for v in values if v is not None)
    return values[len(values) // 2] if values else None


def group_rows(records, key, label):
    groups = {}
    for r in records:
        groups.setdefault(key(r), []).append(r)
    rows = []
    for k in sorted(groups):
        members = groups[k]
        parts = [gap_parts(r) for r in members]
        known = [p for p in parts if p[1] is not None]
        rows.append([label(k), len(members), number(median(p[0] for p in parts)),
                     f"{sum(1 for p in known if p[1] > 0)}/{len(known)}",
                     number(median(p[2] for p in known)),
                     number(median(r.get("largest_state_list") for r in members))])
    return rows


GROUP_COLUMNS = ["group", "unproved", "median gap", "value below the optimum (known)",
                 "median bound - optimum", "median largest list"]


def report(records):
    open_runs = [r for r in records if unproved(r)]
    lines = [f"{len(open_runs)} of {len(records)} runs unproved.", "",
             markdown_table(INSTANCE_COLUMNS, instance_rows(open_runs))]
    for title, key, label in GROUPINGS:
        lines += ["", f"By {title}:", "",
                  markdown_table(GROUP_COLUMNS, group_rows(open_runs, key, label))]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="+", help="knapsack_set.py --json files")
    parser.add_argument("--markdown", help="write the tables here too")
    args = parser.parse_args()
    try:
        records, _ = merged_records(args.runs)
    except BadArguments as error:
        sys.exit(f"knapsack_set_gaps.py: error: {error}")
    text = report(records)
    sys.stdout.write(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
