# An update's modules laid over the application frozen into the firmware image.
#
#   overlay.install("/app/b")     # from bootsel.boot(), before the application starts
#
# On a board without PSRAM the application is frozen into the firmware
# (firmware/port/manifest.py): its code runs from flash and costs the heap
# only the objects it makes. An update's slot then holds only the files that
# differ from the image (update/stage.py leaves out the rest, by the digests
# in the frozen appimage module), so a small fix costs heap only for what it
# replaces. Those files must be found before the frozen ones, module by
# module, and MicroPython cannot do that by sys.path alone: a package (ui/,
# store/, ...) is searched in the one folder its __path__ names, so a slot
# holding ui/round_entry.mpy and nothing else of ui/ would hide the frozen
# ui/home.mpy. So the slot is not put on sys.path; this module replaces
# builtins.__import__ (MicroPython calls it for every import statement) with
# a function that, for a module the slot holds and nothing has imported yet,
# points the search at the slot's folder for that one look-up and then back:
# a package's __path__ for a module in it, sys.path for a top-level module.
# Everything else is imported as before, from the image.
#
# Frozen into the image beside the application, never in a bundle (port/ is
# left out of bundles): the code that loads an update cannot be replaced by one.
import sys

FROZEN = ".frozen"

_over = {}  # module name -> the folder that holds it in the slot
_tops = []  # (name, "name.") of each top-level module or package the slot holds something of
_undo = []  # (package or None for sys.path, what to put back) while a look-up is pointed at the slot
_real = None  # the interpreter's own __import__


def modules(folder, listdir):
    """{module name: folder holding it} of the modules under `folder` (an update's slot).

    listdir(path) -> [(name, is_dir)]. lib/ holds packages of the core (lib/tafel
    is the package tafel), as on sys.path."""
    found = {}
    _scan(folder, "", listdir, found)
    return found


def _scan(folder, package, listdir, found):
    for name, is_dir in listdir(folder):
        if is_dir:
            if not package and name == "lib":
                _scan(folder + "/lib", "", listdir, found)
            else:
                _scan(folder + "/" + name, (package + "." if package else "") + name, listdir, found)
        elif name.endswith(".mpy") or (name.endswith(".py") and name != "main.py"):  # .py: by hand
            leaf = name.rsplit(".", 1)[0]
            if leaf == "__init__":  # the package itself: found as a folder in its parent's folder
                if package:
                    found[package] = folder.rsplit("/", 1)[0]
            else:
                found[(package + "." if package else "") + leaf] = folder


def install(folder, listdir=None, base=FROZEN):
    """Lay the .mpy files of `folder` over the frozen application; how many modules it holds.

    base: where the application's own modules are (".frozen"; tests use a folder)."""
    global _real, _base
    import builtins

    if listdir is None:
        listdir = _os_listdir
    _base = base
    _over.clear()
    _over.update(modules(folder, listdir))
    del _tops[:]
    for full in _over:
        top = full.partition(".")[0]
        if (top, top + ".") not in _tops:
            _tops.append((top, top + "."))
    if _over and _real is None:
        _real = builtins.__import__
        builtins.__import__ = _import
    return len(_over)


def uninstall():
    """Back to the interpreter's own import (tests)."""
    global _real
    import builtins

    if _real is not None:
        builtins.__import__ = _real
        _real = None
    _over.clear()
    del _tops[:]


_base = FROZEN


def _os_listdir(path):
    import os

    try:
        return [(entry[0], entry[1] == 0x4000) for entry in os.ilistdir(path)]
    except OSError:  # no such folder: nothing laid over
        return []


def _import(name, globals=None, locals=None, fromlist=None, level=0):
    _put_back()  # an import made while a slot's module runs looks where everything else does
    if _concerns(name if not level else (globals.get("__name__", "") if globals else "")):
        full = _absolute(name, globals, level) if level else name
        _want(full)
        if type(fromlist) is tuple and full:
            for item in fromlist:
                _want(full + "." + item)
    return _real(name, globals, locals, fromlist, level)


def _concerns(name):
    # Whether an import by this name (or, relative, from this module) may reach into the slot: only
    # within a top-level package the slot holds something of. Every other import of a boot goes
    # straight on, making no names to look up: the boot's imports then leave no garbage between
    # the modules they make (a boot after an update found no 2.4 KB run for the display's buffer).
    for top, inside in _tops:
        if name == top or name.startswith(inside):
            return True
    return False


def _want(full):
    # A module about to be imported: from the slot if it holds it, else from where the image
    # has it (its package's __path__ may name the slot, if the package's __init__ came from it).
    if full in sys.modules:
        return
    if full in _over:
        _load(full)
        return
    parent = full.rpartition(".")[0]
    pkg = sys.modules.get(parent) if parent and parent in _over else None
    # Only a package has a search path to point back; `full` may be a name inside a plain
    # module ("from link.link import Link"), which a __path__ would make a package.
    if pkg is not None and hasattr(pkg, "__path__"):
        pkg.__path__ = _base + "/" + parent.replace(".", "/")


def _absolute(name, globals, level):
    # "from . import x" in link/link.py: name "", level 1 -> "link".
    base = globals.get("__name__", "") if globals else ""
    if globals is None or "__path__" not in globals:  # a module: its package is before the last dot
        base = base.rpartition(".")[0]
    for _ in range(level - 1):
        base = base.rpartition(".")[0]
    return base + "." + name if name and base else (name or base)


def _load(full):
    # Import `full` from the slot: the search pointed at its folder for the look-up only.
    parent = full.rpartition(".")[0]
    if parent:
        _want(parent)  # the package first (from the slot, if the slot holds its __init__)
        _real(parent)
        pkg = sys.modules[parent]
        _undo.append((pkg, pkg.__path__))
        pkg.__path__ = _over[full]
    else:
        _undo.append((None, sys.path[:]))
        sys.path[:] = [_over[full]]
    try:
        _real(full)
    finally:
        _put_back()
    module = sys.modules.get(full)
    if module is not None and hasattr(module, "__path__"):  # a package from the slot: its other
        module.__path__ = _base + "/" + full.replace(".", "/")  # modules are the image's


def _put_back():
    while _undo:
        pkg, saved = _undo.pop()
        if pkg is None:
            sys.path[:] = saved
        else:
            pkg.__path__ = saved
