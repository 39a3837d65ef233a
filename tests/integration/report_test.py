"""`permbb report`: the HTML page of a run, from a progress log the real solver recorded.

Run by ctest with PERMBB_BIN (the executable) in the environment, or by hand:
    python3 tests/integration/report_test.py build/permbb
The report is rendered twice: by report/permbb_report.py run directly, and by
`permbb report`, which runs the copy next to the executable (permbb-report.py).

The recorded search: ta011 at its best-known makespan (--ub opt, nothing better exists),
stopped by a node limit (where it stops must not depend on the machine's speed), then
restarted from its checkpoint to the end. What the log must say follows from what its
fields mean, not from numbers of an earlier run. The same search with two branching rules
(each run once to its end) is rendered on one page comparing them. Logs that the solver no
longer writes (several searches in one file) and the outputs' checks use logs written by
hand.
"""
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "report", "permbb_report.py")
BIN = os.environ.get("PERMBB_BIN", "")
INSTANCE = "ta011"
# About 6.7 million nodes in all at this bound: the first run stops near half-way.
FIRST_RUN_NODES = 3000000
SOLVE = [INSTANCE, "--ub", "opt", "--no-gpu", "--threads", "1", "--progress", "0.1", "--quiet"]
# Compared on one page: at this bound each takes about 2 s on one core and logs some ticks.
COMPARED_BRANCHES = ("fwd", "bwd")
# Nodes per second, remaining work and the incumbent; one more under MPI only.
PLOTS_SINGLE_PROCESS = 3
IMAGE = re.compile(r'src="data:image/png;base64,[A-Za-z0-9+/]+=*"')


def solve(*args, branch="fwd"):
    return subprocess.run([BIN, "solve", *SOLVE, "--branch", branch, *args],
                          capture_output=True, text=True, timeout=300)


def read_log(path):
    with open(path) as f:
        return [json.loads(line) for line in f]


def path_list(paths):
    """One PATH, or a list of PATHs to compare."""
    return [paths] if isinstance(paths, str) else list(paths)


def render_direct(paths, output, *options):
    """The script itself, as a user runs it (sys.executable: the interpreter of the test)."""
    return subprocess.run([sys.executable, SCRIPT, *path_list(paths), "-o", output, *options],
                          capture_output=True, text=True, timeout=300)


def render_binary(paths, output, *options):
    return subprocess.run([BIN, "report", *path_list(paths), "-o", output, *options],
                          capture_output=True, text=True, timeout=300)


RENDERERS = {"script": render_direct, "permbb report": render_binary}


class PageChecks:
    """For test classes that record runs in self.folder and render them."""

    def output(self, name):
        return os.path.join(self.folder, name)

    def check_page(self, proc, html_path, images):
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stderr, "")
        with open(html_path) as f:
            page = f.read()
        self.assertEqual(len(IMAGE.findall(page)), images)
        self.assertNotRegex(page, r'(src|href)="https?:')  # self-contained
        self.assertIn(INSTANCE, page)
        return page


class RecordedRun(PageChecks, unittest.TestCase):
    """One search, recorded once for every test of the class: a run stopped by the node
    limit, then its restart, both appending to one progress log."""

    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.mkdtemp(prefix="permbb-report-test.")
        cls.log = os.path.join(cls.folder, "progress.jsonl")
        checkpoint = os.path.join(cls.folder, "search.ckpt")
        common = ["--progress-log", cls.log, "--checkpoint", checkpoint]
        cls.first = solve(*common, "--node-limit", str(FIRST_RUN_NODES))
        cls.second = solve(*common, "--restart", checkpoint)
        cls.records = read_log(cls.log) if os.path.exists(cls.log) else []

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.folder, ignore_errors=True)

    def test_the_solver_stopped_then_finished(self):
        self.assertEqual(self.first.returncode, 3, self.first.stderr)
        self.assertEqual(self.second.returncode, 0, self.second.stderr)

    def events(self):
        return [(r["restart"], r["event"]) for r in self.records]

    def test_the_restart_continues_the_same_file(self):
        events = self.events()
        self.assertEqual(events[0], (0, "start"))
        restart_at = events.index((1, "start"))
        self.assertEqual(events[restart_at - 1], (0, "end"))
        self.assertEqual(events[-1], (1, "end"))
        self.assertEqual([r for r, _ in events], sorted(r for r, _ in events))
        self.assertTrue(all(r in (0, 1) for r, _ in events), events)
        self.assertIn((0, "progress"), events)

    def test_every_line_has_the_common_fields(self):
        for record in self.records:
            for key in ("event", "restart", "unix_time", "seconds"):
                self.assertIn(key, record)
        starts = [r for r in self.records if r["event"] == "start"]
        self.assertEqual([s["instance"] for s in starts], [INSTANCE, INSTANCE])
        self.assertEqual([s["ranks"] for s in starts], [1, 1])
        self.assertEqual(starts[0]["nodes_before"], 0)
        self.assertEqual(starts[1]["nodes_before"], FIRST_RUN_NODES)

    def remaining(self, restart):
        return [r["run_remaining"] for r in self.records
                if r["restart"] == restart and r["event"] in ("progress", "end")]

    def test_remaining_work_falls_from_one_toward_zero(self):
        # A share of the run's starting work: within (0, 1], and it never grows, since the
        # explored part of the interval never comes back.
        for restart in (0, 1):
            shares = self.remaining(restart)
            self.assertTrue(shares, f"no progress or end line in run {restart}")
            self.assertTrue(all(0 <= s <= 1 for s in shares), shares)
            self.assertEqual(shares, sorted(shares, reverse=True), shares)
        self.assertGreater(self.remaining(0)[-1], 0, "the first run stopped half-way")

    def test_the_end_says_complete_with_nothing_left(self):
        ends = [r for r in self.records if r["event"] == "end"]
        self.assertEqual([e["complete"] for e in ends], [False, True])
        last = ends[-1]
        self.assertEqual(last["run_remaining"], 0)
        self.assertIsNone(last["space_remaining_log10"])
        self.assertEqual(last["nodes_total"], FIRST_RUN_NODES + last["nodes"])
        self.assertLess(ends[0]["space_remaining_log10"], 0)

    def test_the_page_has_its_plots_and_marks_the_restart(self):
        for name, render in RENDERERS.items():
            with self.subTest(renderer=name):
                html_path = self.output(f"{name.replace(' ', '-')}.html")
                page = self.check_page(render(self.log, html_path), html_path,
                                       PLOTS_SINGLE_PROCESS)
                self.assertIn("1 restart(s)", page)
                self.assertIn("complete", page)

    def test_images_writes_the_plots_as_png_files(self):
        folder = self.output("plots")
        proc = subprocess.run([BIN, "report", self.log, "-o", self.output("with-images.html"),
                               "--images", folder], capture_output=True, text=True, timeout=300)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        plots = [f"plot-{k}.png" for k in range(1, PLOTS_SINGLE_PROCESS + 1)]
        # Beside the plots, the list of them that the next report removes (and no other file).
        self.assertEqual(sorted(os.listdir(folder)), [".permbb-report-images"] + plots)
        with open(os.path.join(folder, ".permbb-report-images")) as f:
            self.assertEqual(f.read().split(), plots)
        for name in plots:
            with open(os.path.join(folder, name), "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n", name)

    def test_a_cut_last_line_is_skipped_with_a_note(self):
        with open(self.log) as f:
            lines = f.readlines()
        cut = self.output("cut.jsonl")
        with open(cut, "w") as f:
            f.writelines(lines[:-1])
            f.write(lines[-1][: len(lines[-1]) // 2])
        for name, render in RENDERERS.items():
            with self.subTest(renderer=name):
                html_path = self.output(f"cut-{name.replace(' ', '-')}.html")
                page = self.check_page(render(cut, html_path), html_path,
                                       PLOTS_SINGLE_PROCESS)
                self.assertIn(f"line {len(lines)} is cut short", page)
                self.assertIn("no end line", page)

    def test_a_single_start_line_renders(self):
        single = self.output("single.jsonl")
        with open(self.log) as f:
            first = f.readline()
        with open(single, "w") as f:
            f.write(first)
        html_path = self.output("single.html")
        self.check_page(render_direct(single, html_path), html_path, PLOTS_SINGLE_PROCESS)

    def test_a_chain_and_a_sweep_folder(self):
        # Folders as slurm/runstate.py leaves them, around the recorded log.
        chain = self.output("sweep/ub-1582")
        os.makedirs(chain)
        shutil.copy(self.log, os.path.join(chain, "progress.jsonl"))
        write_json(os.path.join(chain, "chain.json"), {
            "instance": INSTANCE, "status": "complete", "links": [
                {"link": 1, "job_id": "7", "hosts": ["n1"], "outcome": "resumable"},
                {"link": 2, "job_id": "8", "hosts": ["n2"], "outcome": "complete"}]})
        write_json(self.output("sweep/sweep.json"), {
            "instance": INSTANCE, "status": "stopped", "next_ub": 1583, "steps": [
                {"ub": 1582, "status": "no-better-than-ub", "proves": "C* > 1581",
                 "nodes_decomposed": 6705081, "links": 2, "run_dir": "ub-1582"}]})
        html_path = self.output("chain.html")
        page = self.check_page(render_binary(chain, html_path), html_path,
                               PLOTS_SINGLE_PROCESS)
        self.assertIn("restart chain", page)
        html_path = self.output("sweep.html")
        # The steps' plot, then the progress plots of the steps one after another.
        page = self.check_page(render_binary(self.output("sweep"), html_path), html_path,
                               1 + PLOTS_SINGLE_PROCESS)
        self.assertIn("C* &gt; 1581", page)


class ComparedRuns(PageChecks, unittest.TestCase):
    """The same search with two branching rules, each logged to its own file and rendered
    together: one summary row and one line per PATH on the same plots."""

    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.mkdtemp(prefix="permbb-report-compare.")
        cls.logs = [os.path.join(cls.folder, f"{b}.jsonl") for b in COMPARED_BRANCHES]
        cls.solved = [solve("--progress-log", log, branch=b)
                      for b, log in zip(COMPARED_BRANCHES, cls.logs)]

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.folder, ignore_errors=True)

    def test_both_searches_finished(self):
        for proc in self.solved:
            self.assertEqual(proc.returncode, 0, proc.stderr)

    def test_the_page_compares_both_logs(self):
        for name, render in RENDERERS.items():
            with self.subTest(renderer=name):
                html_path = self.output(f"compare-{name.replace(' ', '-')}.html")
                page = self.check_page(render(self.logs, html_path), html_path,
                                       PLOTS_SINGLE_PROCESS)
                self.assertIn("2 runs compared", page)
                self.assertEqual(page.count("<td>progress log</td>"), 2)  # a row per PATH
                for branch in COMPARED_BRANCHES:
                    self.assertIn(f"<td>{branch}.jsonl</td>", page)  # the legend's name

    def test_a_log_beside_a_run_folder(self):
        # Kinds mix: the second search as the progress log of a chain of one link.
        chain = self.output("chain-bwd")
        os.makedirs(chain, exist_ok=True)
        shutil.copy(self.logs[1], os.path.join(chain, "progress.jsonl"))
        write_json(os.path.join(chain, "chain.json"), {
            "instance": INSTANCE, "status": "complete",
            "links": [{"link": 1, "job_id": "7", "hosts": ["n1"], "outcome": "complete"}]})
        html_path = self.output("compare-chain.html")
        page = self.check_page(render_binary([self.logs[0], chain], html_path), html_path,
                               PLOTS_SINGLE_PROCESS)
        self.assertIn("<td>run folder</td>", page)
        self.assertIn("<td>chain-bwd</td>", page)

    def test_one_bad_path_among_good_ones(self):
        missing = self.output("no-such-run.jsonl")
        output = self.output("refused.html")
        for name, render in RENDERERS.items():
            with self.subTest(renderer=name):
                proc = render([self.logs[0], missing, self.logs[1]], output)
                self.assertEqual(proc.returncode, 2, proc.stderr)
                lines = proc.stderr.splitlines()
                self.assertEqual(len(lines), 1, proc.stderr)
                self.assertRegex(lines[0], "^permbb: error: .*no-such-run.jsonl: no such file")
                self.assertFalse(os.path.exists(output))


def write_json(path, data):
    with open(path, "w") as f:
        json.dump(data, f)


class BadInput(unittest.TestCase):
    """Exit status 2 and one line on stderr that names the path; never a traceback."""

    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.folder.cleanup()

    def path(self, name, content=None):
        path = os.path.join(self.folder.name, name)
        if content is not None:
            with open(path, "w") as f:
                f.write(content)
        return path

    def check_refused(self, path, why, output=None):
        """`output`: an output path that is the one at fault (named in the error)."""
        named, output = (output, output) if output else (path, self.path("out.html"))
        for name, render in RENDERERS.items():
            with self.subTest(renderer=name, path=path):
                proc = render(path, output)
                self.assertEqual(proc.returncode, 2, proc.stderr)
                lines = proc.stderr.splitlines()
                self.assertEqual(len(lines), 1, proc.stderr)
                self.assertTrue(lines[0].startswith("permbb: error: "), lines[0])
                self.assertIn(named, lines[0])
                self.assertRegex(lines[0], why)
                self.assertFalse(os.path.exists(self.path("out.html")))

    def test_a_missing_path(self):
        self.check_refused(self.path("no-such-log.jsonl"), "no such file")

    def test_an_empty_folder(self):
        empty = self.path("empty")
        os.mkdir(empty)
        self.check_refused(empty, "chain.json.*sweep.json")

    def test_a_text_file_that_is_not_a_log(self):
        self.check_refused(self.path("notes.txt", "a text file\nof two lines\n"),
                           "not a progress log")

    def test_json_lines_without_events(self):
        self.check_refused(self.path("other.jsonl", '{"a": 1}\n{"a": 2}\n'),
                           "not a progress log")

    def test_a_malformed_line_in_the_middle(self):
        good = '{"event": "progress", "restart": 0, "unix_time": 1.0, "seconds": 1.0}\n'
        self.check_refused(self.path("broken.jsonl", good + "{not json\n" + good),
                           "line 2 is not JSON")

    def test_an_output_that_cannot_be_written(self):
        log = self.path("ok.jsonl", '{"event": "start", "restart": 0, "unix_time": 1.0, '
                                    '"seconds": 0.0, "instance": "ta001"}\n')
        self.check_refused(log, "cannot write",
                           output=os.path.join(self.folder.name, "no-folder", "out.html"))

    def test_lines_of_unknown_events_only(self):
        self.check_refused(self.path("ticks.jsonl", '{"event": "tick"}\n{"event": "tock"}\n'),
                           "no start, progress or end line: not a progress log")


# ---------------------------------------------------------------------------------------
# Progress logs written by hand (docs/progress-log.md).

# Two Taillard instances: jobs, machines, optimum.
SHAPES = {"ta011": (20, 10, 1582), "ta021": (20, 20, 2297)}


def run_lines(instance, restart=0, nodes=1000, nodes_before=0, complete=True, **identity):
    """The start, progress and end lines of one run; `identity`: fingerprint, bound,
    branching (what the solver writes since it has them; older logs lack them)."""
    jobs, machines, best = SHAPES[instance]
    common = {"restart": restart, "unix_time": 1000.0 + restart * 10}
    start = {"event": "start", **common, "seconds": 0.0, "instance": instance, "jobs": jobs,
             "machines": machines, "initial_ub": best + 10, "ranks": 1,
             "nodes_before": nodes_before, "seconds_before": 2.0 * restart,
             "run_remaining": 1, "space_remaining_log10": 0, **identity}
    progress = {"event": "progress", **common, "seconds": 1.0, "nodes": nodes // 2,
                "nodes_total": nodes_before + nodes // 2, "nodes_per_second": nodes / 2,
                "best": best, "run_remaining": 0.5, "space_remaining_log10": -0.3,
                "active": 1}
    end = {"event": "end", **common, "seconds": 2.0, "complete": complete, "best": best,
           "nodes": nodes, "nodes_total": nodes_before + nodes,
           "run_remaining": 0 if complete else 0.25,
           "space_remaining_log10": None if complete else -0.6}
    return [start, progress, end]


def write_log(path, *runs):
    with open(path, "w") as f:
        for line in [line for run in runs for line in run]:
            f.write(json.dumps(line) + "\n")
    return path


def table_row(page, name):
    """The cells after the first of the table row whose first cell is `name`, or None."""
    row = re.search(f"<tr><td>{re.escape(html.escape(name))}</td>(.*?)</tr>", page)
    return re.findall("<td>(.*?)</td>", row.group(1)) if row else None


class HandWrittenCase(PageChecks, unittest.TestCase):
    def setUp(self):
        self.temporary = tempfile.TemporaryDirectory()
        self.folder = self.temporary.name

    def tearDown(self):
        self.temporary.cleanup()

    def render_page(self, paths):
        html_path = self.output("page.html")
        return self.check_page(render_direct(paths, html_path), html_path,
                               PLOTS_SINGLE_PROCESS)


# The fields of a comparison row after its name: kind, path, instance, outcome, best
# makespan, nodes, seconds, runs.
BEST, NODES, RUNS = 4, 5, 7
FINGERPRINT = {"fingerprint": "3f1c9a2e7b5d4c10", "bound": "lb1", "branching": "fwd"}


class SearchesInOneLog(HandWrittenCase):
    """A log may hold several searches (appended by older solvers, or a fresh run logged to
    an old file): each is its own row and line, nothing of one counted in another."""

    def test_another_instance_appended_is_its_own_search(self):
        log = write_log(self.output("g.jsonl"), run_lines("ta021", nodes=1000),
                        run_lines("ta011", nodes=5000))
        page = self.render_page(log)
        self.assertIn("2 searches in one log", page)
        self.assertIn("holds 2 searches (search 1: ta021, search 2: ta011), shown apart", page)
        first, second = table_row(page, "g.jsonl (search 1: ta021)"), \
            table_row(page, "g.jsonl (search 2: ta011)")
        self.assertEqual((first[BEST], first[NODES], first[RUNS]), ("2297", "1000", "1"))
        self.assertEqual((second[BEST], second[NODES], second[RUNS]), ("1582", "5000", "1"))
        self.assertIn("ta021 (20 jobs, 20 machines)", first)

    def test_two_fresh_runs_are_two_searches_not_a_restart(self):
        log = write_log(self.output("g.jsonl"), run_lines("ta011", nodes=1000),
                        run_lines("ta011", nodes=3000))
        page = self.render_page(log)
        self.assertNotIn("restart(s)", page)
        self.assertIn("holds 2 searches (search 1: ta011, search 2: ta011)", page)
        self.assertEqual(table_row(page, "g.jsonl (search 1: ta011)")[NODES], "1000")
        self.assertEqual(table_row(page, "g.jsonl (search 2: ta011)")[NODES], "3000")

    def test_a_restart_stays_in_its_search(self):
        # Also where the first start line lacks the identity (an older solver wrote it).
        for first in ({}, FINGERPRINT):
            with self.subTest(first_identity=first):
                log = write_log(self.output("g.jsonl"),
                                run_lines("ta011", nodes=1000, complete=False, **first),
                                run_lines("ta011", restart=1, nodes_before=1000,
                                          **FINGERPRINT))
                page = self.render_page(log)
                self.assertIn("2 (1 restart(s) in this log)", page)
                self.assertNotIn("searches", page)
                self.assertIn("<th>nodes (all runs)</th><td>2000</td>", page)

    def test_a_restart_of_other_instance_data_is_another_search(self):
        # Same name, other data: a restart line with another fingerprint is not this search.
        log = write_log(self.output("g.jsonl"),
                        run_lines("ta011", nodes=1000, complete=False, **FINGERPRINT),
                        run_lines("ta011", restart=1, nodes_before=70, nodes=30,
                                  **dict(FINGERPRINT, fingerprint="0000000000000001")))
        page = self.render_page(log)
        self.assertIn("holds 2 searches", page)
        self.assertEqual(table_row(page, "g.jsonl (search 1: ta011)")[NODES], "1000")
        self.assertEqual(table_row(page, "g.jsonl (search 2: ta011)")[NODES], "100")

    def test_searches_of_a_log_among_compared_paths(self):
        two = write_log(self.output("two.jsonl"), run_lines("ta021"), run_lines("ta011"))
        one = write_log(self.output("one.jsonl"), run_lines("ta011", nodes=7000))
        page = self.render_page([two, one])
        self.assertIn("2 runs compared", page)
        self.assertEqual(table_row(page, "two.jsonl (search 1: ta021)")[BEST], "2297")
        self.assertEqual(table_row(page, "two.jsonl (search 2: ta011)")[BEST], "1582")
        self.assertEqual(table_row(page, "one.jsonl")[NODES], "7000")

    def test_a_run_folder_whose_log_holds_an_earlier_search(self):
        chain = self.output("run")
        os.mkdir(chain)
        write_log(os.path.join(chain, "progress.jsonl"), run_lines("ta021"),
                  run_lines("ta011", nodes=4000))
        write_json(os.path.join(chain, "chain.json"), {
            "instance": INSTANCE, "status": "complete",
            "links": [{"link": 1, "job_id": "7", "hosts": ["n1"], "outcome": "complete"}]})
        page = self.render_page(chain)
        self.assertIn("holds 2 searches (search 1: ta021, search 2: ta011)", page)
        # The chain's summary is of its own search, the last.
        self.assertIn("<th>best makespan</th><td>1582</td>", page)
        self.assertIn("<th>nodes (all links)</th><td>4000</td>", page)


class OutputsThatAreInputs(HandWrittenCase):
    """No output may overwrite (or, with --images, remove) a file the report reads: refused
    before anything is written, naming the output and the input."""

    def setUp(self):
        super().setUp()
        self.log = write_log(self.output("g.jsonl"), run_lines(INSTANCE))
        self.original = self.contents()

    def contents(self):
        """Every file under the test's folder, by path, not following links."""
        found = {}
        for root, _, files in os.walk(self.folder):
            for name in files:
                path = os.path.join(root, name)
                if not os.path.islink(path):
                    with open(path, "rb") as f:
                        found[path] = f.read()
        return found

    def check_refused(self, paths, output, named, source, *options, verb="overwrite"):
        for name, render in RENDERERS.items():
            with self.subTest(renderer=name, output=output, options=options):
                proc = render(paths, output, *options)
                self.assertEqual(proc.returncode, 2, proc.stderr)
                self.assertEqual(proc.stderr, f"permbb: error: {named}: the same file as the "
                                              f"input {source}, which it would {verb}\n")
                self.assertEqual(self.contents(), self.original)  # nothing written

    def test_the_page_onto_the_log(self):
        self.check_refused(self.log, self.log, f"-o {self.log}", self.log)

    def test_the_page_onto_the_log_through_a_link(self):
        symbolic, hard = self.output("symbolic.html"), self.output("hard.html")
        os.symlink(self.log, symbolic)
        os.link(self.log, hard)
        self.original = self.contents()
        for output in (symbolic, hard):
            self.check_refused(self.log, output, f"-o {output}", self.log)

    def test_the_page_onto_the_second_of_several_logs(self):
        second = write_log(self.output("h.jsonl"), run_lines("ta021"))
        self.original = self.contents()
        self.check_refused([self.log, second], second, f"-o {second}", second)

    def test_the_page_onto_a_file_read_in_a_run_or_sweep_folder(self):
        chain = self.output("sweep/ub-1582")
        os.makedirs(chain)
        shutil.copy(self.log, os.path.join(chain, "progress.jsonl"))
        write_json(os.path.join(chain, "chain.json"), {"instance": INSTANCE, "links": []})
        write_json(os.path.join(chain, "result.json"), {"makespan": 1582})
        write_json(self.output("sweep/sweep.json"), {
            "instance": INSTANCE, "status": "stopped",
            "steps": [{"ub": 1582, "status": "no-better-than-ub", "run_dir": "ub-1582"}]})
        self.original = self.contents()
        for folder in (chain, self.output("sweep")):
            for name in ("progress.jsonl", "chain.json", "result.json"):
                read = os.path.join(chain, name)
                self.check_refused(folder, read, f"-o {read}", read)
        sweep = self.output("sweep/sweep.json")
        self.check_refused(self.output("sweep"), sweep, f"-o {sweep}", sweep)

    def test_images_onto_the_log(self):
        images = self.output("plots")
        os.mkdir(images)
        plot = os.path.join(images, "plot-2.png")
        os.symlink(self.log, plot)
        with open(os.path.join(images, ".permbb-report-images"), "w") as f:
            f.write("plot-2.png\n")
        self.original = self.contents()
        page = self.output("page.html")
        # An earlier report's plot-2.png (its list names it), a link to the log: it would be
        # removed.
        self.check_refused(self.log, page, f"--images {plot}", self.log, "--images", images,
                           verb="remove")
        # The folder itself, the log: of the PATHs, or read in a run folder.
        self.check_refused(self.log, page, f"--images {self.log}", self.log,
                           "--images", self.log)
        chain = self.output("run")
        os.mkdir(chain)
        read = os.path.join(chain, "progress.jsonl")
        shutil.copy(self.log, read)
        write_json(os.path.join(chain, "chain.json"), {"instance": INSTANCE, "links": []})
        self.original = self.contents()
        self.check_refused(chain, page, f"--images {read}", read, "--images", read)

    def test_the_page_among_the_images(self):
        images = self.output("plots")
        page = os.path.join(images, "plot-1.png")
        os.mkdir(images)
        proc = render_direct(self.log, page, "--images", images)
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertRegex(proc.stderr, f"^permbb: error: -o {re.escape(page)}: a plot file of "
                                      f"--images {re.escape(images)}")
        self.assertEqual(os.listdir(images), [])


class ImagesFolder(HandWrittenCase):
    def test_the_plots_of_an_earlier_report_are_replaced(self):
        images = self.output("plots")
        os.mkdir(images)
        # An earlier report's plots, as its list names them; plot-10.png, not in the list, is
        # the user's own and stays, as every other file does.
        stale = [f"plot-{k}.png" for k in (1, 2, 3, 4)]
        others = ["plot-1.png.bak", "plot-x.png", "Plot-5.png", "plot-7.PNG", "notes.txt",
                  "plot-10.png"]
        for name in stale + others:
            with open(os.path.join(images, name), "w") as f:
                f.write("an earlier file\n")
        with open(os.path.join(images, ".permbb-report-images"), "w") as f:
            f.write("".join(name + "\n" for name in stale))
        others.append(".permbb-report-images")
        log = write_log(self.output("g.jsonl"), run_lines(INSTANCE))
        for name, render in RENDERERS.items():
            with self.subTest(renderer=name):
                proc = render(log, self.output("page.html"), "--images", images)
                self.assertEqual(proc.returncode, 0, proc.stderr)
                plots = [f"plot-{k}.png" for k in range(1, PLOTS_SINGLE_PROCESS + 1)]
                self.assertEqual(sorted(os.listdir(images)), sorted(plots + others))
                for plot in plots:
                    with open(os.path.join(images, plot), "rb") as f:
                        self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n", plot)
                for other in others[:-1]:
                    with open(os.path.join(images, other)) as f:
                        self.assertEqual(f.read(), "an earlier file\n", other)


if __name__ == "__main__":
    if len(sys.argv) > 1 and not sys.argv[1].startswith("-"):
        BIN = os.path.abspath(sys.argv.pop(1))
    if not BIN:
        sys.exit("usage: report_test.py PATH/TO/permbb (or PERMBB_BIN in the environment)")
    unittest.main()
