"""Key presses for the table's everyday flows on the simulated device: prints a table, not a test.

    .venv/bin/python bench/key_counts.py        (or: make bench)

Runs bench/mpy/key_counts.py on the MicroPython unix port: each flow is played
on the default board's simulated device as a player presses it, checked (the
game must hold what the keys meant), and its presses counted (keys and rotary
steps; multi-tap's pauses are not presses). Exit 1 if a flow did not do what it
should.
"""
import os
import subprocess
import sys

from benchlib import find_tool, micropython_named, run_recorded, table

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    micropython = find_tool("micropython")
    if micropython is None:
        print("key_counts: no micropython (make test installs it into .venv)")
        return 2
    out = subprocess.run([micropython, "-X", "heapsize=8M", "bench/mpy/key_counts.py"], cwd=REPO,
                         capture_output=True, text=True, timeout=600)
    rows, failed = [], False
    for line in out.stdout.splitlines():
        parts = line.split("\t")
        if len(parts) == 4:
            rows.append([parts[0], parts[1], "`%s`" % parts[2]])
            failed = failed or parts[3] != "ok"
    if out.returncode or not rows:
        print(out.stdout + out.stderr)
        return 1
    print("Key presses per flow (default board, the simulated device on %s):" % micropython_named(micropython))
    print(table(["flow", "presses", "keys"], rows, "lrl"))
    if failed:
        print("a flow did not do what its keys meant: see FAILED above")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(run_recorded(main, "key_counts", measured_on=lambda: micropython_named(find_tool("micropython"))))
