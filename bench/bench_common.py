"""Helpers shared by the benchmark scripts: running `permbb solve` and reading its JSON."""
import json
import subprocess
import sys


def solve(binary, instance, options, env=None):
    """Runs `permbb solve INSTANCE OPTIONS --json - --quiet` (in `env`, default this process's
    environment); returns the parsed result. A run its limit stopped (exit 3) is a result."""
    cmd = [binary, "solve", instance, *options, "--json", "-", "--quiet"]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if proc.returncode not in (0, 3):
        sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr}")
    return json.loads(proc.stdout)


def table_header(columns):
    print("| " + " | ".join(columns) + " |")
    print("|" + "|".join("---" for _ in columns) + "|", flush=True)


def table_row(cells):
    print("| " + " | ".join(str(c) for c in cells) + " |", flush=True)
