# pytest (CPython) for tests/crypto: the firmware's `update` package importable as on the device.
#
# Loaded as the package `update` from firmware/update without putting
# firmware/ itself on sys.path (its board.py, main.py, sim/ ... would then be
# importable by name for every later test). Under MicroPython the runner
# (tests/mpy_runner.py) has firmware/ on sys.path and this file is not read.
import importlib.util
import sys
from pathlib import Path

_UPDATE = Path(__file__).resolve().parents[2] / "firmware" / "update"

if "update" not in sys.modules:
    _spec = importlib.util.spec_from_file_location(
        "update", _UPDATE / "__init__.py", submodule_search_locations=[str(_UPDATE)])
    _module = importlib.util.module_from_spec(_spec)
    sys.modules["update"] = _module
    _spec.loader.exec_module(_module)
