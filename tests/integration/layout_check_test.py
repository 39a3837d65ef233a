"""scripts/check_layout.py: the repository passes, and each kind of violation in a small tree
of rooms is found (an include, a link, MPI outside common/protocol, a README without its
uses, a file the architecture page does not name)."""
import pathlib
import subprocess
import sys
import tempfile
import unittest

REPO = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "check_layout.py"


def check(tree):
    return subprocess.run([sys.executable, str(SCRIPT), str(tree)], capture_output=True,
                          text=True, timeout=60)


def write(root, files):
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


# Two rooms: low may use nothing, high may use low.
GOOD = {
    "low/README.md": "# low\nMay use: nothing\n",
    "low/low.hpp": "#pragma once\nint low();\n",
    "low/low.cpp": '#include "low.hpp"\nint low() { return 1; }\n',
    "low/CMakeLists.txt": "add_library(permbb_low STATIC low.cpp)\n"
                          "add_library(permbb::low ALIAS permbb_low)\n",
    "high/README.md": "# high\nMay use: low\n",
    "high/high.cpp": '#include "low.hpp"\nint high() { return low(); }\n',
    "high/CMakeLists.txt": "add_library(permbb_high STATIC high.cpp)\n"
                           "target_link_libraries(permbb_high PUBLIC permbb::low)\n",
    "docs/architecture.md": "low/: low* (a number)\nhigh/: high.cpp\n",
}


class LayoutCheck(unittest.TestCase):
    def test_the_repository_keeps_its_layout(self):
        result = check(REPO)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("every include and link allowed", result.stdout)

    def run_tree(self, changes):
        with tempfile.TemporaryDirectory() as folder:
            root = pathlib.Path(folder)
            write(root, {**GOOD, **changes})
            return check(root)

    def test_allowed_uses_pass(self):
        self.assertEqual(self.run_tree({}).returncode, 0)

    def test_an_upward_include_fails(self):
        result = self.run_tree({"low/low.cpp": '#include "low.hpp"\n#include "high2.hpp"\n',
                                "high/high2.hpp": "#pragma once\n"})
        self.assertEqual(result.returncode, 1)
        self.assertIn("low/low.cpp:2: includes high2.hpp from high/", result.stdout)

    def test_an_upward_link_fails(self):
        result = self.run_tree({"low/CMakeLists.txt": GOOD["low/CMakeLists.txt"] +
                                "target_link_libraries(permbb_low PUBLIC permbb_high)\n"})
        self.assertEqual(result.returncode, 1)
        self.assertIn("permbb_low links permbb_high (high/)", result.stdout)

    def test_mpi_outside_the_protocol_room_fails(self):
        result = self.run_tree({"high/high.cpp": "#include <mpi.h>\n"})
        self.assertEqual(result.returncode, 1)
        self.assertIn("high/high.cpp:1: includes <mpi.h>", result.stdout)

    def test_a_room_without_its_uses_fails(self):
        result = self.run_tree({"high/README.md": "# high\n"})
        self.assertEqual(result.returncode, 1)
        self.assertIn("high/README.md: no 'May use:' line", result.stdout)

    def test_a_file_missing_from_the_architecture_fails(self):
        result = self.run_tree({"high/extra.cpp": "int extra();\n"})
        self.assertEqual(result.returncode, 1)
        self.assertIn("docs/architecture.md: does not name high/extra.cpp", result.stdout)


if __name__ == "__main__":
    unittest.main()
