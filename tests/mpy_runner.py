# Test runner for MicroPython (no pytest there): micropython tests/mpy_runner.py DIR [DIR...] [-k TEXT] [--fast] [--allow-empty]
#
# It imports every test_*.py in each DIR (sorted) and calls every module-level
# function named test_* (sorted by name) with no arguments. Tests that run here
# must therefore take no arguments: no fixtures, no parametrize, no marks.
# Under CPython the same files run with real pytest (make test does both).
#
# A small stand-in for pytest is installed: pytest.raises(exc, match=None)
# (with excinfo.value), pytest.skip(msg), pytest.fail(msg) and
# pytest.importorskip(name). A test module whose import fails with an
# ImportError naming hypothesis, or that calls pytest.skip while importing, is
# reported as SKIP (property tests are CPython only); any other import error
# is a FAIL.
#
# Things MicroPython does differently, worth knowing when writing core tests:
# no `inspect` and no guaranteed `__code__`; `isinstance(True, int)` is False;
# str.lower() folds ASCII only; `re` is a small subset (no {m,n}, no named
# groups), so pytest.raises(match=...) also accepts a plain substring;
# module dicts have no order (tests are sorted by name here).
#
# --fast leaves out the files marked slow: a line "# slow: <why>" among a file's first five lines
# (make quick runs the rest; make test runs everything).
#
# Output: one line per test (PASS/FAIL/SKIP name), then the closing line
# "N passed, N failed, N skipped"; a test that took 2 s or more shows its time. Exit status 1 if a test failed or if no
# test ran at all (skipped tests do not count as run), unless --allow-empty.
import gc
import os
import re
import sys
import time

try:
    import tafelchip  # the device build's model of ESP-IDF's heap (firmware/port/unix/tafel/tafelchip.c)
except ImportError:
    tafelchip = None
_IDF_HANDLES = 512  # the model's handles (idfheap.c MAX_HANDLES)


def _abspath(path):
    # MicroPython has no os.path: join with the cwd and fold "." and "..".
    if not path.startswith("/"):
        path = os.getcwd() + "/" + path
    parts = []
    for part in path.split("/"):
        if part == "..":
            if parts:
                parts.pop()
        elif part and part != ".":
            parts.append(part)
    return "/" + "/".join(parts)


def _dirname(path):
    return path.rsplit("/", 1)[0] or "/"


def _is_dir(path):
    try:
        return os.stat(path)[0] & 0x4000 != 0
    except OSError:
        return False


TESTS = _dirname(_abspath(sys.argv[0]))  # <repo>/tests
REPO = _dirname(TESTS)


# ---- the pytest stand-in --------------------------------------------------


class Skipped(Exception):
    pass


class Failed(AssertionError):
    pass


class _ExcInfo:
    def __init__(self):
        self.type = None
        self.value = None


class _Raises:
    def __init__(self, expected, match):
        self.expected = expected
        self.match = match
        self.info = _ExcInfo()

    def __enter__(self):
        return self.info

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            raise Failed("DID NOT RAISE %r" % (self.expected,))
        if not issubclass(exc_type, self.expected):
            return False  # a different exception: let it propagate
        if exc is None or not isinstance(exc, BaseException):
            exc = exc_type(exc) if exc is not None else exc_type()
        if self.match is not None and not _matches(self.match, str(exc)):
            raise Failed("%r does not match %r" % (str(exc), self.match))
        self.info.type = exc_type
        self.info.value = exc
        return True


def _matches(pattern, text):
    if pattern in text:
        return True
    try:
        return re.search(pattern, text) is not None
    except Exception:  # a pattern MicroPython's re cannot compile
        return False


class pytest:
    """Stands in for the pytest module (sys.modules accepts any object)."""

    @staticmethod
    def raises(expected, match=None):
        return _Raises(expected, match)

    @staticmethod
    def skip(msg="", allow_module_level=False):
        raise Skipped(msg)

    @staticmethod
    def fail(msg="", pytrace=True):
        raise Failed(msg)

    @staticmethod
    def importorskip(name, reason=None):
        try:
            return __import__(name)
        except ImportError:
            raise Skipped(reason or "could not import %r" % name) from None


pytest.Skipped = Skipped
pytest.Failed = Failed


# ---- running ---------------------------------------------------------------


def _skip_reason(err):
    # Which import errors mean "CPython only" rather than "broken".
    if isinstance(err, Skipped):
        return str(err) or "skipped"
    if isinstance(err, ImportError) and "hypothesis" in str(err):
        return "needs hypothesis (CPython only)"
    return None


class Run:
    def __init__(self, keyword):
        self.keyword = keyword
        self.fast = False  # --fast: files marked slow are left out
        self.passed = self.failed = self.skipped = self.left_out = 0

    def fail(self, name, err):
        self.failed += 1
        print("FAIL %s:" % name)
        sys.print_exception(err)

    def run_dir(self, folder, label):
        files = sorted(f for f in os.listdir(folder) if f.startswith("test_") and f.endswith(".py"))
        sys.path.insert(0, folder)  # like pytest's default import mode: the test's folder first
        try:
            for filename in files:
                if self.fast and marked_slow(folder + "/" + filename):
                    self.left_out += 1
                    continue
                self.run_module(filename[:-3], label + "/" + filename)
        finally:
            sys.path.remove(folder)

    def run_module(self, modname, label):
        # One process runs every module: what the last one left is collected
        # before this one's code and objects settle in the heap, so garbage
        # does not split it into pieces too small for a big buffer later.
        gc.collect()
        try:
            module = __import__(modname)
        except Exception as err:
            reason = _skip_reason(err)
            if reason is None:
                self.fail(label, err)
            else:
                self.skipped += 1
                print("SKIP %s: %s" % (label, reason))
            return
        finally:
            sys.modules.pop(modname, None)  # so a same-named file in the next folder is imported afresh
        names = sorted(n for n in dir(module) if n.startswith("test_"))
        for name in names:
            func = getattr(module, name)
            full = label + "::" + name
            if not callable(func) or isinstance(func, type):
                continue
            if self.keyword and self.keyword not in full:
                continue
            started = time.ticks_ms()
            power_up_idf()
            try:
                func()
            except Skipped as err:
                self.skipped += 1
                print("SKIP %s: %s" % (full, err))
            except Exception as err:
                self.fail(full, err)
            else:
                self.passed += 1
                took = time.ticks_diff(time.ticks_ms(), started)
                # the slow ones carry their time, so a suite creeping towards CI's limit shows where
                print("PASS %s%s" % (full, " (%.1f s)" % (took / 1000) if took >= 2000 else ""))


def power_up_idf():
    """ESP-IDF's heap as a power-up leaves it, before each test: on the device build its model
    (tafelchip) lives as long as this process, and the Wi-Fi stations and sockets of a test's
    devices would keep what they took from it; on the chip a reset gives it all back."""
    if tafelchip is not None:
        for handle in range(1, _IDF_HANDLES + 1):
            tafelchip.idf_free(handle)  # False where the handle is not in use


def marked_slow(path):
    """Whether a test file says "# slow: <why>" among its first five lines."""
    with open(path) as f:
        for _ in range(5):
            if f.readline().startswith("# slow:"):
                return True
    return False


def main(argv):
    usage = "usage: micropython tests/mpy_runner.py DIR [DIR...] [-k TEXT] [--fast] [--allow-empty]"
    folders, keyword, allow_empty, fast = [], None, False, False
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg == "-k" and args:
            keyword = args.pop(0)
        elif arg == "--allow-empty":
            allow_empty = True
        elif arg == "--fast":
            fast = True
        elif arg.startswith("-"):
            print(usage)
            return 2
        else:
            folders.append(arg)
    if not folders:
        print(usage)
        return 2

    for path in (TESTS, REPO + "/firmware", REPO + "/lib"):
        if path not in sys.path:
            sys.path.insert(0, path)  # ends as lib, firmware, tests
    # Last: the simulated board around the chip (host_tools/simboard), which the firmware tests keep
    # in their own process (firmware/sim/simmachine.py from_profile); nothing of host_tools comes first.
    sys.path.append(REPO + "/host_tools")
    sys.modules["pytest"] = pytest

    run = Run(keyword)
    run.fast = fast
    for folder in folders:
        path = _abspath(folder)
        if not _is_dir(path):
            if allow_empty:
                print("(no folder %s: nothing to run)" % folder)
                continue
            print("no such folder: %s" % folder)
            return 2
        run.run_dir(path, folder.rstrip("/"))

    empty = run.passed == 0 and run.failed == 0 and not allow_empty
    if empty:
        print("error: no test ran in %s" % " ".join(folders))
    print("%d passed, %d failed, %d skipped%s" % (run.passed, run.failed, run.skipped,
                                                ", %d slow files left out" % run.left_out if run.left_out else ""))
    return 1 if run.failed or empty else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
