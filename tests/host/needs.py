# The host suite's one skip policy. A test that needs what a machine may lack (the 32-bit device
# build, MicroPython's unpacked sources, pseudo-terminals, a tool) is skipped with a note saying
# what is missing and how to get it; in a run that requires everything (.ci/run sets
# TAFEL_REQUIRE_DEVICE_BUILD=1) a missing need is an error, never a skip. A checkout's own files
# (firmware/sim/run.py, ...) are no need: they are always there.
#
#   pytestmark = needs(POSIX, "pseudo-terminals", "run it on Linux or macOS")
#   @needs(MPREMOTE is not None, "mpremote", "make's .venv has it")
import os
import shutil
import sys

import pytest

STRICT = bool(os.environ.get("TAFEL_REQUIRE_DEVICE_BUILD"))
POSIX = os.name == "posix"  # pseudo-terminals, file modes


def tool(name):
    """The path of a command-line tool from this interpreter's environment or PATH, or None."""
    return shutil.which(name, path=os.path.dirname(sys.executable)) or shutil.which(name)


def needs(present, what, how):
    """A mark: none when `present`; else a skip that says `what` is missing and `how` to get it, or,
    in a run that requires everything, an error when the test file is collected."""
    if present:
        return pytest.mark.skipif(False, reason=what)  # marks nothing
    if STRICT:
        raise RuntimeError("%s is missing, and this run requires it: %s" % (what, how))
    return pytest.mark.skip(reason="%s is missing: %s" % (what, how))


def needs_device_build():
    """needs() of the 32-bit device build (make device-build): the heap gate's chip, the virtual chip."""
    from simlink import ROOT
    from tafel_host.sim import runtime as sim_runtime

    return needs(sim_runtime.device_build(ROOT) is not None, "the 32-bit device build (the virtual chip)",
                 "make device-build")


def skip_unless(present, what, how):
    """needs() inside a test: skip (or, in a run that requires everything, fail) here."""
    if present:
        return
    if STRICT:
        pytest.fail("%s is missing, and this run requires it: %s" % (what, how))
    pytest.skip("%s is missing: %s" % (what, how))
