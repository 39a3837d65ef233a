"""The installation (cmake/Install.cmake) and the Debian package (cmake/Package.cmake), run from
where they were put, not from the build folder.

Run by ctest with PERMBB_BUILD_DIR (a built build folder) in the environment, or by hand:
    PERMBB_BUILD_DIR=build python3 -m unittest tests/integration/install_test.py
`cmake --install` copies the built files into a scratch prefix (no rebuild); the prefix is
then moved, to show that nothing depends on where it was installed, and its own executables
solve ta001 (optimum 1278, Taillard's table), draw a report of the example progress log and
run the Slurm helpers through their links in bin/. The package test builds the .deb with
cpack (the same install rules, staged under /usr), unpacks it into a scratch root with
dpkg-deb -x and runs permbb from there.
"""
import glob
import json
import os
import shutil
import subprocess
import tempfile
import unittest

BUILD = os.environ.get("PERMBB_BUILD_DIR", "")
TA001_OPTIMUM = 1278  # Taillard's table (proven optimal)
HELPERS = ("permbb-submit", "permbb-sweep", "permbb-mpirun")


def run(*args, cwd=None, timeout=120):
    return subprocess.run(list(args), capture_output=True, text=True, timeout=timeout, cwd=cwd)


class InstalledTree:
    """Checks on a prefix that holds bin/permbb and share/permbb (installed or unpacked)."""

    def check_solves_ta001(self, prefix, cwd):
        proc = run(os.path.join(prefix, "bin", "permbb"), "solve", "ta001", "--no-gpu",
                   "--threads", "1", "--quiet", "--json", "-", cwd=cwd)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        result = json.loads(proc.stdout)
        self.assertEqual(result["status"], "optimal")
        self.assertEqual(result["makespan"], TA001_OPTIMUM)
        version = run(os.path.join(prefix, "bin", "permbb"), "--version").stdout
        self.assertIn(result["permbb_version"], version)

    def check_report(self, prefix, cwd):
        example = os.path.join(prefix, "share", "permbb", "examples", "ta021-progress.jsonl")
        page = os.path.join(cwd, "ta021.html")
        proc = run(os.path.join(prefix, "bin", "permbb"), "report", example, "-o", page,
                   cwd=cwd, timeout=300)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(page) as f:
            self.assertIn("<html", f.read(4096).lower())

    def check_helpers(self, prefix):
        for helper in HELPERS:
            link = os.path.join(prefix, "bin", helper)
            self.assertTrue(os.path.islink(link), link)
            self.assertFalse(os.path.isabs(os.readlink(link)), "a relative link moves with P")
            proc = run(link, "--help")
            self.assertEqual(proc.returncode, 0, f"{helper}: {proc.stderr}")
            self.assertIn("Usage", proc.stdout + proc.stderr, helper)


# The commands of environment modules (Tcl) and Lmod (Lua) that a module file calls, as
# stubs, run by the plain interpreter: PERMBB_ROOT is printed.
MODULE_STUBS = {
    "tclsh": """
proc module-whatis {args} {}
proc prepend-path {args} {}
proc setenv {name value} { if {$name eq "PERMBB_ROOT"} { puts $value } }
set ModulesCurrentModulefile [lindex $argv 0]
source [lindex $argv 0]
""",
    "lua5.4": """
local module = arg[1]
function whatis() end
function help() end
function prepend_path() end
function pathJoin(...) return table.concat({...}, "/") end
function isFile(p) local f = io.open(p) if f then f:close() return true end return false end
function myFileName() return module end
function subprocess(cmd) local p = io.popen(cmd) local out = p:read("a") p:close() return out end
function setenv(name, value) if name == "PERMBB_ROOT" then print(value) end end
dofile(module)
""",
}


def module_root(interpreter, module):
    """The PERMBB_ROOT that the module file `module` sets when loaded as it is named."""
    proc = subprocess.run([interpreter, "/dev/stdin", module], input=MODULE_STUBS[interpreter],
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


@unittest.skipUnless(BUILD, "PERMBB_BUILD_DIR names the build folder")
class Install(unittest.TestCase, InstalledTree):
    def test_installed_prefix_runs_from_anywhere(self):
        with tempfile.TemporaryDirectory() as scratch:
            first = os.path.join(scratch, "first")
            proc = run("cmake", "--install", BUILD, "--prefix", first)
            self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
            # Moved after installing: only the module files name the prefix (checked below).
            prefix = os.path.join(scratch, "moved")
            os.rename(first, prefix)
            work = os.path.join(scratch, "work")
            os.mkdir(work)
            self.check_solves_ta001(prefix, work)
            self.check_report(prefix, work)
            self.check_helpers(prefix)
            share = os.path.join(prefix, "share")
            for path in ("permbb/slurm/permbb.sbatch", "permbb/slurm/lib.sh",
                         "permbb/examples/taillard_20x5_first3.txt", "doc/permbb/README.md",
                         "man/man1/permbb.1"):
                self.assertTrue(os.path.isfile(os.path.join(share, path)), path)
            for module in ("permbb.lua", "permbb.tcl"):
                with open(os.path.join(share, "permbb", "modulefiles", module)) as f:
                    text = f.read()
                self.assertIn(f'"{first}"', text, module)
                self.assertNotIn("@PERMBB", text, module)
            # Loaded from the moved prefix, or through a link from a MODULEPATH folder, each
            # module file finds the prefix it lies in, not the one it was installed under.
            link_dir = os.path.join(scratch, "modules", "permbb")
            os.makedirs(link_dir)
            for interpreter, name, link in [("tclsh", "permbb.tcl", "0.1.0"),
                                            ("lua5.4", "permbb.lua", "0.1.0.lua")]:
                module = os.path.join(share, "permbb", "modulefiles", name)
                os.symlink(module, os.path.join(link_dir, link))
                for loaded in (module, os.path.join(link_dir, link)):
                    self.assertEqual(module_root(interpreter, loaded), prefix, loaded)
            # An example in Taillard's published layout, its second instance (ta002).
            proc = run(os.path.join(prefix, "bin", "permbb"), "instance",
                       os.path.join(share, "permbb/examples/taillard_20x5_first3.txt#2"))
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertTrue(proc.stdout.startswith("20 5\n26 38 27 88 95 "), proc.stdout[:40])


@unittest.skipUnless(BUILD, "PERMBB_BUILD_DIR names the build folder")
class DebianPackage(unittest.TestCase, InstalledTree):
    def test_package_unpacks_and_runs(self):
        with tempfile.TemporaryDirectory() as scratch:
            out = os.path.join(scratch, "packages")
            proc = run("cpack", "-G", "DEB", "-B", out, cwd=BUILD, timeout=600)
            self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
            debs = glob.glob(os.path.join(out, "*.deb"))
            self.assertEqual(len(debs), 1, os.listdir(out))
            fields = run("dpkg-deb", "-f", debs[0], "Package", "Depends").stdout
            self.assertIn("Package: permbb", fields)
            for library in ("libgmp", "python3"):
                self.assertIn(library, fields)
            root = os.path.join(scratch, "root")
            proc = run("dpkg-deb", "-x", debs[0], root)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            prefix = os.path.join(root, "usr")
            work = os.path.join(scratch, "work")
            os.mkdir(work)
            self.check_solves_ta001(prefix, work)
            self.check_report(prefix, work)
            self.check_helpers(prefix)
            with open(os.path.join(prefix, "share/permbb/modulefiles/permbb.lua")) as f:
                self.assertIn('"/usr"', f.read())
            shutil.rmtree(os.path.join(out, "_CPack_Packages"), ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
