#!/usr/bin/env python3
"""The whole published hard knapsack set (Jooken, Leyman & De Causmaecker, EJOR 2022) through
`permbb knapsack`, every claimed optimum checked.

Runs `permbb knapsack FILE --method M --time-limit S` on each instance of the set, --jobs at
a time (one per core by default). Every solution is checked against the instance file (item
numbers in range and distinct, total weight within the capacity, total profit equal to the
value claimed). An optimum claimed where the index knows combo's optimum must equal it; where
the index has none (-1: combo never solved it), a second method that shares no search code
with the first (--confirm-method, default bb, the breadth-first branch-and-bound, against
the expanding core; with `--at-least` the value claimed, so that it seeks only solutions worth
that much and proves the value with its own search and its own solution) is run with
--confirm-time-limit, and both results are listed. A value
above a known optimum, an upper bound below it, an infeasible solution or two methods'
optima that differ are reported as WRONG and make the exit status 1.

Prints a summary by the generator's parameters (n and c; g; f; eps; all) beside combo's
figures from the index (its times are the authors' machine's) and the goals' shares: the
known optima proved, those where combo took over 60 s, the open ones proved and confirmed.

--part K/N runs the K-th of N deterministic parts (every N-th instance in name order, from
the K-th); --merge FILE... combines the parts' --json files into one summary. Ctrl-C (or
SIGTERM) stops the runs and writes the results so far; --json is also rewritten every
30 seconds.

Usage:
  bench/knapsack_set.py --set DIR|ARCHIVE.tar.xz [--bin build/permbb] [--time-limit S]
                        [--jobs N] [--gpus 0,1,...] [--method core] [--confirm-method bb]
                        [--confirm-time-limit S] [--memory-fraction F] [--part K/N]
                        [--names FILE] [--only REGEX] [--limit K] [--json OUT]
                        [--markdown OUT]
  bench/knapsack_set.py --merge PART.json... [--json OUT] [--markdown OUT]
"""
import argparse
import concurrent.futures
import contextlib
import csv
import json
import math
import os
import platform
import random
import re
import signal
import subprocess
import sys
import tarfile
import tempfile
import threading
import time

from knapsack import cell, markdown_table

NAME_PATTERN = re.compile(r"n_(?P<n>\d+)_c_(?P<c>\d+)_g_(?P<g>\d+)_f_(?P<f>[0-9.e-]+)"
                          r"_eps_(?P<eps>[0-9.e-]+)_s_(?P<s>\d+)$")
SAVE_EVERY_SECONDS = 30
SAMPLE_SEED = 53
NO_RESULT = ("error", "killed")  # statuses of a run that left no result (run_permbb)


class BadArguments(Exception):
    """A command-line mistake: one line on stderr, exit status 2."""


# ---------------------------------------------------------------- the set and its files


@contextlib.contextmanager
def opened_set(path):
    """Yields the folder holding instances/ and index.csv: PATH itself, or an archive
    unpacked to a temporary folder (removed afterwards)."""
    if os.path.isdir(path):
        yield set_folder(path)
        return
    if not tarfile.is_tarfile(path):
        raise BadArguments(f"--set {path}: neither a folder nor a tar archive")
    with tempfile.TemporaryDirectory(prefix="knapsack_set_") as scratch:
        print(f"unpacking {path} to {scratch}", file=sys.stderr, flush=True)
        with tarfile.open(path) as archive:
            archive.extractall(scratch, filter="data")
        yield set_folder(scratch)


def set_folder(top):
    """The folder at or below TOP that holds index.csv and instances/."""
    for folder, subfolders, files in os.walk(top):
        if "index.csv" in files and "instances" in subfolders:
            return folder
    raise BadArguments(f"--set {top}: no folder with index.csv and instances/ in it")


def read_index(path):
    """name -> (combo's optimum, combo's seconds); None for both where the index has -1."""
    index = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            optimum, seconds = int(row["optimum"]), float(row["combo_seconds"])
            index[row["name"]] = (optimum, seconds) if optimum >= 0 else (None, None)
    return index


def read_instance(path):
    """The numbered layout: n, then n lines `id profit weight`, then the capacity. Returns
    (profits, weights, capacity), items in file order."""
    with open(path) as f:
        values = [int(v) for v in f.read().split()]
    n = values[0]
    if len(values) != 3 * n + 2:
        raise ValueError(f"{path}: {len(values)} values, expected {3 * n + 2} for n = {n}")
    return values[2:3 * n + 1:3], values[3:3 * n + 2:3], values[-1]


def generator_parameters(name):
    """n, c, g, f, eps, s from an instance name (n_<n>_c_<c>_g_<g>_f_<f>_eps_<eps>_s_<s>);
    f and eps kept as written."""
    found = NAME_PATTERN.match(name)
    if not found:
        return {key: None for key in ("n", "c", "g", "f", "eps", "s")}
    fields = found.groupdict()
    return {key: value if key in ("f", "eps") else int(value) for key, value in fields.items()}


def selected_names(names, args):
    """--names, --only, then --part, then --limit (a sample drawn with a fixed seed), in name
    order."""
    names = sorted(names)
    if args.names:
        listed = read_names(args.names)
        missing = sorted(listed - set(names))
        if missing:
            raise BadArguments(f"--names {args.names}: {len(missing)} names not in the set, "
                               f"such as {missing[0]}")
        names = [name for name in names if name in listed]
    if args.only:
        names = [name for name in names if re.search(args.only, name)]
    if args.part:
        part, parts = args.part
        names = names[part - 1::parts]
    if args.limit and args.limit < len(names):
        names = sorted(random.Random(SAMPLE_SEED).sample(names, args.limit))
    return names


def read_names(path):
    """The instance names in PATH, one a line (blank lines and '#' comments skipped)."""
    try:
        with open(path) as f:
            lines = [line.split("#", 1)[0].strip() for line in f]
    except OSError as error:
        raise BadArguments(f"--names {path}: {error}")
    return {line for line in lines if line}


# ---------------------------------------------------------------- running permbb


class RunningProcesses:
    """The permbb processes now running, so that an interrupt can stop them all; with GPUS
    (device numbers), each run sees only the GPU that the fewest running processes use, so
    that the runs spread over the GPUs instead of all taking the first."""

    def __init__(self, gpus=()):
        self.lock = threading.Lock()
        self.processes = set()
        self.stopping = False
        self.users = {gpu: 0 for gpu in gpus}

    def run(self, cmd, timeout):
        """Runs CMD; returns (exit status, stdout, stderr); exit status None when killed at
        TIMEOUT or by stop_all()."""
        with self.lock:
            if self.stopping:
                return None, "", "stopped"
            gpu = min(self.users, key=self.users.get) if self.users else None
            env = None
            if gpu is not None:
                self.users[gpu] += 1
                env = dict(os.environ, CUDA_VISIBLE_DEVICES=gpu)
            process = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       text=True, env=env)
            self.processes.add(process)
        try:
            stdout, stderr = process.communicate(timeout=timeout)
            returncode = None if self.stopping else process.returncode
        except subprocess.TimeoutExpired:
            process.kill()
            stdout, stderr = process.communicate()
            returncode = None
        finally:
            with self.lock:
                self.processes.discard(process)
                if gpu is not None:
                    self.users[gpu] -= 1
        return returncode, stdout, stderr

    def stop_all(self):
        with self.lock:
            self.stopping = True
            for process in self.processes:
                process.kill()


def run_permbb(args, running, path, method, time_limit, extra=()):
    """One `permbb knapsack` run (EXTRA: more options): its JSON, with `status` 'error' (exit
    2 or a crash) or 'killed' (well past its time limit, or stopped) where there is none, and
    the wall clock."""
    cmd = [args.bin, "knapsack", path, "--method", method, "--time-limit", str(time_limit),
           "--memory-fraction", str(args.memory_fraction), "--json", "-", "--quiet", *extra]
    begin = time.monotonic()
    returncode, stdout, stderr = running.run(cmd, timeout=1.5 * time_limit + 60)
    wall = time.monotonic() - begin
    if returncode in (0, 3):
        result = json.loads(stdout)
    elif returncode is None:
        result = {"status": "killed", "error": "killed past the time limit, or stopped"}
    else:
        lines = stderr.strip().splitlines() or [f"exit status {returncode}"]
        result = {"status": "error", "error": lines[-1]}
    result["wall_seconds"] = wall
    return result


def solution_problems(instance, result):
    """What is wrong with a run's solution against the instance file: item numbers (from 1,
    in file order) out of range or repeated, weight above the capacity, profit unequal to
    the value claimed. Empty when it is right or there is no solution."""
    if "chosen" not in result:
        return []
    profits, weights, capacity = instance
    chosen = result["chosen"]
    problems = []
    outside = [k for k in chosen if not 1 <= k <= len(profits)]
    if outside:
        problems.append(f"items {outside[:5]} do not exist (n = {len(profits)})")
    if len(set(chosen)) != len(chosen):
        problems.append("items chosen twice")
    inside = [k - 1 for k in chosen if 1 <= k <= len(profits)]
    weight = sum(weights[k] for k in inside)
    profit = sum(profits[k] for k in inside)
    if weight > capacity:
        problems.append(f"weight {weight} above the capacity {capacity}")
    if profit != result["value"]:
        problems.append(f"profit {profit} of the items chosen, value claimed {result['value']}")
    return problems


def optimum_problems(result, optimum):
    """Disagreements with a known optimum: an optimum claimed that differs, a solution
    above it, an upper bound below it."""
    if optimum is None or result["status"] not in ("optimal", "incomplete"):
        return []
    if result["status"] == "optimal" and result["value"] != optimum:
        return [f"optimum {result['value']} claimed, the index's is {optimum}"]
    if result["value"] > optimum:
        return [f"a solution of {result['value']}, above the index's optimum {optimum}"]
    bound = result.get("upper_bound")
    if bound is not None and bound < optimum:
        return [f"upper bound {bound} below the index's optimum {optimum}"]
    return []


# What --method core says about where it stopped (null for the other methods): the list and
# core sizes, the capacity searched, and the bounds behind its upper bound.
CORE_DIAGNOSTICS = ["largest_state_list", "core_size", "items_fixed", "capacity_used",
                    "dantzig_upper", "states_upper", "cardinality_upper"]


# What --method groups says about its search (null for the other methods).
GROUP_DIAGNOSTICS = ["groups", "light_items", "table_cells", "group_nodes", "group_leaves"]


def run_summary(result, method, instance):
    """The fields of a run kept in the records, its solution checked against the file."""
    problems = solution_problems(instance, result)
    return {
        "method": method,
        "status": result["status"],
        "value": result.get("value"),
        "upper_bound": result.get("upper_bound"),
        "seconds": result.get("seconds"),
        "wall_seconds": result["wall_seconds"],
        "states": result.get("states_explored"),
        "nodes": result.get("nodes_explored"),
        "engine": result.get("engine"),
        "chosen": len(result["chosen"]) if "chosen" in result else None,
        **{field: result.get(field) for field in CORE_DIAGNOSTICS},
        **{field: result.get(field) for field in GROUP_DIAGNOSTICS},
        "error": result.get("error"),
        "solution_check": "WRONG: " + "; ".join(problems) if problems else
                          ("ok" if "chosen" in result else "none"),
    }


def index_check(run, optimum):
    """The first run against the index's optimum."""
    problems = optimum_problems(run, optimum)
    if problems:
        return "WRONG: " + "; ".join(problems)
    if optimum is None:
        return "unknown"
    if run["status"] == "optimal":
        return "equal"
    return "below (not proved)" if run["status"] == "incomplete" else "no solution"


def confirmation_check(run, confirm):
    """The second method's run against the first's claimed optimum."""
    if confirm["status"] == "optimal":
        if confirm["value"] == run["value"]:
            return "confirmed"
        return f"WRONG: {confirm['method']} proves {confirm['value']}, not {run['value']}"
    if confirm["status"] == "none-at-least":
        # The first method's solution is worth that value (checked against the file): a
        # search that finds none is wrong.
        return f"WRONG: {confirm['method']} finds no solution worth {run['value']}"
    if confirm["value"] is not None and confirm["value"] > run["value"]:
        return f"WRONG: {confirm['method']} finds {confirm['value']}, above {run['value']}"
    return f"unconfirmed ({confirm['method']} {confirm['status']})"


def confirm_options(method, run):
    """The second method's options beyond the first's: the branch-and-bound and the group
    search seek only solutions worth the value claimed (--at-least), so that each proves that
    value itself, with its own search and its own solution, in a fraction of a plain search."""
    return ["--at-least", str(run["value"])] if method in ("bb", "groups") else []


def second_method(args, first):
    """--confirm-method, or with 'other' the first of --method's list that is not FIRST (the
    branch-and-bound when the list has no other)."""
    if args.confirm_method != "other":
        return args.confirm_method
    return next((m for m in args.methods if m != first), "bb")


def run_methods(args, running, path, instance):
    """The methods of --method in turn until one proves the optimum: each but the last for
    --first-share of the time limit, the last for what is left (at least a second). A method
    that takes --at-least is given the best value an earlier one found (its solution checked
    against the file): it then proves that value or a better one, or finds none. The last
    run's summary (where none proves it, the one with the best value), with the seconds of all
    and each one's outcome in `tried`."""
    remaining = args.time_limit
    tried, problems, runs, found = [], [], [], None
    for k, method in enumerate(args.methods):
        last = k == len(args.methods) - 1
        limit = remaining if last else min(remaining, args.time_limit * args.first_share)
        hint = confirm_options(method, {"value": found}) if found else []
        run = run_summary(run_permbb(args, running, path, method, round(limit, 3), hint),
                          method, instance)
        runs.append(run)
        spent = run_seconds(run)
        tried.append({"method": method, "status": run["status"], "value": run["value"],
                      "seconds": spent})
        if run["solution_check"].startswith("WRONG"):
            problems.append(f"{method}: {run['solution_check']}")
        elif run["solution_check"] == "ok" and run["value"] and run["value"] > (found or 0):
            found = run["value"]
        remaining = max(remaining - spent, 1.0)
        if run["status"] == "optimal":
            break
    if run["status"] != "optimal":
        run = max(runs, key=lambda r: r["value"] if r["value"] is not None else -1)
    run["seconds"] = sum(t["seconds"] for t in tried)
    run["tried"] = tried
    if problems:
        run["solution_check"] = "; ".join(problems)
    return run


def solve_instance(args, running, folder, name, index):
    """One instance: the runs, their checks, and the second method where the optimum claimed
    is not in the index. The record kept for it."""
    path = os.path.join(folder, "instances", name + ".in")
    optimum, combo_seconds = index.get(name, (None, None))
    try:
        instance = read_instance(path)
        run = run_methods(args, running, path, instance)
    except (OSError, ValueError) as error:
        run = run_summary({"status": "error", "error": f"unreadable: {error}",
                           "wall_seconds": 0.0}, args.methods[0], None)
    checks = {"solution": run.pop("solution_check"), "index": index_check(run, optimum)}
    confirm = None
    if run["status"] == "optimal" and optimum is None:
        method = second_method(args, run["method"])
        confirm = run_summary(run_permbb(args, running, path, method, args.confirm_time_limit,
                                         confirm_options(method, run)),
                              method, instance)
        checks["confirm solution"] = confirm.pop("solution_check")
        checks["confirmation"] = confirmation_check(run, confirm)
    record = {"name": name, **generator_parameters(name), **run, "checks": checks,
              "confirm": confirm, "optimum": optimum, "combo_seconds": combo_seconds,
              "in_index": name in index}
    record["wrong"] = [f"{check}: {verdict}" for check, verdict in checks.items()
                       if verdict.startswith("WRONG")]
    return record


def progress_line(record, done, total):
    checks = ", ".join(f"{check} {verdict}" for check, verdict in record["checks"].items())
    seconds = cell(record["seconds"], 2) if record["seconds"] is not None else "—"
    outcome = record["error"] or f"{record['value']} in {seconds} s"
    loud = "WRONG " if record["wrong"] else ""
    return f"{loud}[{done}/{total}] {record['name']}: {record['status']} {outcome}; {checks}"


# ---------------------------------------------------------------- the runs


def run_set(args, header, write_outputs):
    """Runs the selected instances, --jobs at a time; returns their records (name order)
    and whether the runs were interrupted. write_outputs(records) is called every
    SAVE_EVERY_SECONDS, so that a killed run still leaves its results."""
    records, interrupted = [], False
    with opened_set(args.set) as folder:
        index = read_index(os.path.join(folder, "index.csv"))
        files = os.listdir(os.path.join(folder, "instances"))
        names = selected_names([f[:-3] for f in files if f.endswith(".in")], args)
        header["selected"] = len(names)
        print(f"{len(names)} instances, {args.jobs} at a time, {args.time_limit} s each",
              file=sys.stderr, flush=True)
        running = RunningProcesses(args.gpus)
        pool = concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs)
        futures = [pool.submit(solve_instance, args, running, folder, name, index)
                   for name in names]
        last_save = time.monotonic()
        try:
            for future in concurrent.futures.as_completed(futures):
                records.append(future.result())
                print(progress_line(records[-1], len(records), len(names)),
                      file=sys.stderr, flush=True)
                if time.monotonic() - last_save > SAVE_EVERY_SECONDS:
                    write_outputs(sorted(records, key=lambda r: r["name"]))
                    last_save = time.monotonic()
        except KeyboardInterrupt:
            interrupted = True
            print(f"interrupted: {len(records)} of {len(names)} instances done; writing "
                  "those", file=sys.stderr, flush=True)
            running.stop_all()
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
    return sorted(records, key=lambda r: r["name"]), interrupted


def merged_records(paths):
    """The records of several --json files (parts of one set), each instance once; and
    their headers. A later file may run again an instance that gave no result in an earlier
    one (an error, or killed): its record replaces that one. Two results of one instance are
    refused."""
    records, headers, seen = {}, [], {}
    for path in paths:
        try:
            with open(path) as f:
                part = json.load(f)
        except (OSError, ValueError) as error:
            raise BadArguments(f"--merge {path}: {error}")
        if "records" not in part:
            raise BadArguments(f"--merge {path}: not a knapsack_set.py --json file")
        for record in part["records"]:
            earlier = records.get(record["name"])
            if earlier is not None and earlier["status"] not in NO_RESULT:
                raise BadArguments(f"--merge: {record['name']} is in both {seen[record['name']]}"
                                   f" and {path}")
            seen[record["name"]] = path
            records[record["name"]] = record
        headers.append(part["header"])
    return sorted(records.values(), key=lambda r: r["name"]), headers


# ---------------------------------------------------------------- the summary


def proved(record):
    return record["status"] == "optimal" and not record["wrong"]


def confirmed(record):
    return record["checks"].get("confirmation") == "confirmed"


def is_open(record):
    return record["in_index"] and record["optimum"] is None


def run_seconds(record):
    """The solver's own seconds; the wall clock where the run gave none (an error)."""
    return record["seconds"] if record["seconds"] is not None else record["wall_seconds"]


def power_of_ten(c):
    exponent = round(math.log10(c)) if c and c > 0 else None
    return f"1e{exponent}" if exponent is not None and 10 ** exponent == c else str(c)


GROUPINGS = [
    ("n, c", lambda r: (r["n"], r["c"]), lambda k: f"n = {k[0]}, c = {power_of_ten(k[1])}"),
    ("g", lambda r: r["g"], lambda k: f"g = {k}"),
    ("f", lambda r: float(r["f"]), lambda k: f"f = {k:g}"),
    ("eps", lambda r: float(r["eps"]), lambda k: f"eps = {k:g}"),
]
SUMMARY_COLUMNS = ["instances", "permbb proved", "combo proved", "permbb s", "combo s",
                   "open", "open proved and confirmed", "wrong"]


def summary_cells(records):
    combo = [r["combo_seconds"] for r in records if r["combo_seconds"] is not None]
    open_records = [r for r in records if is_open(r)]
    return [len(records), sum(map(proved, records)), len(combo),
            cell(sum(map(run_seconds, records)), 1), cell(sum(combo), 1), len(open_records),
            sum(1 for r in open_records if proved(r) and confirmed(r)),
            sum(1 for r in records if r["wrong"])]


def grouped_table(records, key, label):
    """One row per value of KEY (instances whose name gives no parameters left out), and
    the total."""
    groups = {}
    for record in records:
        if record["n"] is not None:
            groups.setdefault(key(record), []).append(record)
    rows = [[label(k), *summary_cells(groups[k])] for k in sorted(groups)]
    rows.append(["all", *summary_cells(records)])
    return rows


def share(part, whole):
    return f"{part}/{whole}" + (f" ({100 * part / whole:.1f} %)" if whole else "")


def goal_lines(records):
    known = [r for r in records if r["optimum"] is not None]
    slow = [r for r in known if r["combo_seconds"] > 60]
    open_records = [r for r in records if is_open(r)]
    open_proved = [r for r in open_records if proved(r)]
    wrong = [r for r in records if r["wrong"]]
    failed = [r for r in records if r["status"] not in ("optimal", "incomplete")]
    return [
        f"- known optima (combo solved them) proved: {share(sum(map(proved, known)), len(known))}",
        f"- of those where combo took over 60 s, proved: "
        f"{share(sum(map(proved, slow)), len(slow))}",
        f"- open (combo never solved them) proved: {share(len(open_proved), len(open_records))}"
        f"; proved and confirmed: {share(sum(map(confirmed, open_proved)), len(open_records))}",
        f"- no result (an error, or killed well past the limit): {len(failed)}" +
        "".join(f"\n  - {r['name']}: {r['status']}: {r['error']}" for r in failed),
        f"- WRONG: {len(wrong)}" + "".join(f"\n  - {r['name']}: {'; '.join(r['wrong'])}"
                                           for r in wrong),
    ]


def confirmation_table(records):
    """Both methods' results on each open instance the first claimed to solve."""
    rows = []
    for r in records:
        if r["confirm"] is None:
            continue
        c = r["confirm"]
        rows.append([r["name"], r["method"], r["value"], cell(run_seconds(r), 2), c["method"],
                     c["status"], c["value"], cell(run_seconds(c), 2),
                     r["checks"]["confirmation"]])
    columns = ["instance", "method", "optimum", "s", "second method", "status", "value", "s",
               "verdict"]
    return markdown_table(columns, rows) if rows else "(none)"


def header_line(header):
    if "merged" in header:
        return "Merged from " + "; ".join(header_line(h) for h in header["merged"])
    part = f", part {header['part']}" if header.get("part") else ""
    part += " (interrupted)" if header.get("interrupted") else ""
    return (f"{header['selected']} instances of {header['set']}{part}: `--method "
            f"{header['method']}`, {header['time_limit']} s each, {header['jobs']} at a time "
            f"on {header['host']} ({header['cores']} cores); second method "
            f"{header['confirm_method']}, {header['confirm_time_limit']} s")


def summary_markdown(records, header, interrupted):
    """The summary tables and the goals' figures."""
    parts = [header_line(header) + "." +
             (f" Interrupted: {len(records)} done." if interrupted else "")]
    for title, key, label in GROUPINGS:
        parts.append(f"By {title}:\n\n" +
                     markdown_table([title, *SUMMARY_COLUMNS], grouped_table(records, key,
                                                                             label)))
    parts.append("permbb proved: claimed optimal within the limit, every check passed. combo "
                 "proved: the index has combo's optimum. permbb s: the solver's own seconds "
                 "of the first method (the second method's runs not counted); combo s: the "
                 "index's, over the instances combo solved, on the authors' machine. open: "
                 "the index has -1; confirmed: the second method proves the same optimum.")
    parts.append("Goals:\n\n" + "\n".join(goal_lines(records)))
    parts.append("Open instances proved, both methods:\n\n" + confirmation_table(records))
    return "\n\n".join(parts) + "\n"


# ---------------------------------------------------------------- the command line


class OneLineErrors(argparse.ArgumentParser):
    def error(self, message):
        raise BadArguments(message)


def part_argument(text):
    """K/N with 1 <= K <= N."""
    found = re.fullmatch(r"(\d+)/(\d+)", text)
    if not found or not 1 <= int(found.group(1)) <= int(found.group(2)):
        raise argparse.ArgumentTypeError(f"{text!r} is not K/N with 1 <= K <= N")
    return int(found.group(1)), int(found.group(2))


def positive(kind):
    def parse(text):
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or not value > 0 or (kind is float and not math.isfinite(value)):
            raise argparse.ArgumentTypeError(f"{text!r} is not a positive {kind.__name__}")
        return value
    return parse


def gpu_list(text):
    """'0,1,2,3' -> ['0', '1', '2', '3'] (device numbers, each once)."""
    gpus = text.split(",")
    if not all(g.isdigit() for g in gpus) or len(set(gpus)) != len(gpus):
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of GPU numbers like 0,1,2,3")
    return gpus


METHODS = ["core", "bb", "dp", "groups"]


def method_list(text):
    methods = text.split(",")
    unknown = [m for m in methods if m not in METHODS]
    if unknown or len(set(methods)) != len(methods):
        raise argparse.ArgumentTypeError(
            f"{text!r}: a list of distinct methods of {', '.join(METHODS)}")
    return methods


def parse_arguments():
    parser = OneLineErrors(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", help="a folder with instances/ and index.csv, or its .tar.xz")
    parser.add_argument("--merge", nargs="+", metavar="FILE",
                        help="combine these --json files of parts into one summary")
    parser.add_argument("--bin", default="build/permbb", help="the permbb executable")
    parser.add_argument("--time-limit", type=positive(float), default=60,
                        help="seconds per instance (default 60)")
    parser.add_argument("--jobs", type=positive(int), default=len(os.sched_getaffinity(0)),
                        help="runs at once, one per core (default: the cores)")
    parser.add_argument("--gpus", type=gpu_list, default=[], metavar="LIST",
                        help="GPUs to spread the runs over, e.g. 0,1,2,3 (default: each run "
                             "sees what the environment gives it)")
    parser.add_argument("--method", type=method_list, default=["core"], dest="methods",
                        metavar="LIST",
                        help="the method, or methods tried in turn until one proves the "
                             f"optimum, e.g. groups,core (of {', '.join(METHODS)}; default core)")
    parser.add_argument("--first-share", type=positive(float), default=0.25,
                        help="share of the time limit of each method but the last in "
                             "--method's list (default 0.25)")
    parser.add_argument("--confirm-method", choices=[*METHODS, "other"], default="other",
                        help="the second method, for optima not in the index (default other: "
                             "the first of --method's list that did not prove it, else bb)")
    parser.add_argument("--confirm-time-limit", type=positive(float),
                        help="seconds per run of the second method (default: --time-limit)")
    parser.add_argument("--memory-fraction", type=positive(float),
                        help="permbb's --memory-fraction (default: 0.8 / jobs, at most 0.25)")
    parser.add_argument("--part", type=part_argument, metavar="K/N",
                        help="run the K-th of N parts (every N-th instance, from the K-th)")
    parser.add_argument("--names", metavar="FILE",
                        help="only the instances named in FILE (one a line, # comments)")
    parser.add_argument("--only", help="instances whose name matches this regular expression")
    parser.add_argument("--limit", type=positive(int), metavar="K",
                        help=f"a sample of K instances (seed {SAMPLE_SEED}) of those selected")
    parser.add_argument("--json", help="write the header and one record per instance here")
    parser.add_argument("--markdown", help="write the summary here")
    args = parser.parse_args()
    check_arguments(args)
    return args


def check_arguments(args):
    if bool(args.set) == bool(args.merge):
        raise BadArguments("give either --set or --merge")
    if args.merge:
        return
    if not os.path.exists(args.set):
        raise BadArguments(f"--set {args.set}: no such file or folder")
    if not (os.path.isfile(args.bin) and os.access(args.bin, os.X_OK)):
        raise BadArguments(f"--bin {args.bin}: not an executable file")
    if args.methods == [args.confirm_method]:
        raise BadArguments(f"--confirm-method {args.confirm_method}: the same as --method")
    if args.first_share >= 1:
        raise BadArguments("--first-share: below 1")
    if args.only:
        try:
            re.compile(args.only)
        except re.error as error:
            raise BadArguments(f"--only {args.only!r}: {error}")
    args.confirm_time_limit = args.confirm_time_limit or args.time_limit
    args.memory_fraction = args.memory_fraction or round(min(0.25, 0.8 / args.jobs), 4)
    if args.memory_fraction > 0.95:
        raise BadArguments("--memory-fraction: at most 0.95")


def run_header(args):
    return {"set": args.set, "method": ",".join(args.methods), "first_share": args.first_share,
            "time_limit": args.time_limit,
            "jobs": args.jobs, "gpus": args.gpus, "confirm_method": args.confirm_method,
            "confirm_time_limit": args.confirm_time_limit,
            "memory_fraction": args.memory_fraction,
            "part": f"{args.part[0]}/{args.part[1]}" if args.part else None,
            "names": args.names, "only": args.only, "limit": args.limit, "bin": args.bin,
            "host": platform.node(), "cores": os.cpu_count()}


def write_json(path, header, records):
    if path:
        with open(path + ".tmp", "w") as f:
            json.dump({"header": header, "records": records}, f, indent=1)
        os.replace(path + ".tmp", path)


def stop_on_signals():
    """SIGINT (Ctrl-C, also where a shell started the script in the background, which
    ignores it) and SIGTERM stop the runs."""
    def interrupt(signum, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGINT, interrupt)
    signal.signal(signal.SIGTERM, interrupt)


def main():
    try:
        args = parse_arguments()
        if args.merge:
            records, headers = merged_records(args.merge)
            header, interrupted = {"merged": headers}, False
        else:
            stop_on_signals()
            header = run_header(args)
            records, interrupted = run_set(
                args, header, lambda so_far: write_json(args.json, header, so_far))
            header["interrupted"] = interrupted
    except BadArguments as error:
        print(f"knapsack_set.py: error: {error}", file=sys.stderr)
        sys.exit(2)
    write_json(args.json, header, records)
    text = summary_markdown(records, header, interrupted)
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text)
    if any(r["wrong"] for r in records):
        print("knapsack_set.py: WRONG results, listed above", file=sys.stderr)
        sys.exit(1)
    sys.exit(130 if interrupted else 0)


if __name__ == "__main__":
    main()
