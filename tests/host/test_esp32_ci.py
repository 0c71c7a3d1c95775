# The firmware pipeline that cannot run here (.github/workflows/firmware.yml): what can be checked, is.
#
# The workflow is valid for GitHub Actions (its published schema, as check-jsonschema vendors
# it), every step runs a script of this repository that exists, the scripts parse, and the
# smoke test the pipeline sends over the emulated chip's UART passes on the 32-bit unix build
# with the application frozen by the image's own manifest.
import os
import re
import subprocess

import heap_scenarios
from needs import needs_device_build, skip_unless, tool

ROOT = heap_scenarios.ROOT
WORKFLOW = ROOT / ".github" / "workflows" / "firmware.yml"
CI = ROOT / "firmware" / "port" / "esp32" / "ci.sh"


def test_the_workflow_is_valid_for_github_actions():
    checker = tool("check-jsonschema")
    skip_unless(checker is not None, "check-jsonschema", "pip install -e '.[dev]' (make's .venv has it)")
    done = subprocess.run([checker, "--builtin-schema", "vendor.github-workflows", str(WORKFLOW)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_step_runs_a_script_that_is_here():
    text = WORKFLOW.read_text()
    scripts = set(re.findall(r"(firmware/port/esp32/[\w.]+\.sh)", text))
    assert scripts == {"firmware/port/esp32/ci.sh"}
    for step in ("build", "size", "qemu"):
        assert "firmware/port/esp32/ci.sh %s" % step in text
    for script in scripts | {"firmware/port/esp32/build.sh"}:
        path = ROOT / script
        assert path.is_file() and os.access(path, os.X_OK), script
        done = subprocess.run(["bash", "-n", str(path)], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr


def test_the_size_check_reads_the_factory_partition():
    # ci.sh fits compares the built image with the partition table's factory size
    done = subprocess.run(["bash", "-c", 'eval "$(sed -n "/^factory_size()/,/^}/p" "$1")"; '
                           'BOARD_DIR="$2"; factory_size', "-", str(CI),
                           str(ROOT / "firmware" / "port" / "boards" / "TAFEL_ESP32")],
                          capture_output=True, text=True)
    assert done.returncode == 0 and int(done.stdout) == 0x1F0000, done.stderr


def _needs_device_build(test):
    return needs_device_build()(test)


@_needs_device_build
def test_the_smoke_test_passes_on_the_frozen_app(tmp_path):
    # the chip's 112 KB heap (first area and growth), the app frozen as in the image
    done = subprocess.run([str(heap_scenarios.device_build()), "-X", "heapsize=112K",
                           str(ROOT / "firmware" / "port" / "esp32" / "smoke.py")],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    lines = done.stdout.splitlines()
    assert lines[-1] == "SMOKE ok", done.stdout + done.stderr
    assert any(line.startswith("SMOKE game: game 1: 6 rounds") for line in lines)
    assert any(line.startswith("GC: total:") for line in lines)  # micropython.mem_info()
