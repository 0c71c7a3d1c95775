# Imports go one way (docs: DESIGN.md §1): firmware -> lib/tafel, host_tools -> lib/tafel, and
# lib/tafel imports neither. Every import statement of every file is read (ast), relative ones
# resolved; host_tools is also searched for the ways around an import statement (importlib by
# path, sys.path changed, __import__, runpy). Scripts the laptop hands to a MicroPython subprocess
# (bundle_check's version reader, the simulator) are text, not imports, and run on the device's
# interpreter as the device would.
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "lib" / "tafel"
FIRMWARE = ROOT / "firmware"
HOST = ROOT / "host_tools"

# What the pure core may import besides itself: modules MicroPython and CPython both have.
CORE_MAY_IMPORT = {"array", "binascii", "collections", "gc", "hashlib", "io", "micropython", "struct",
                   "sys", "ucollections", "zlib", "deflate", "re", "json", "time", "errno", "os"}

# Firmware modules that import what they should not, each with why it is tolerated for now.
# Empty is the goal; a new leak fails the test until it is fixed or named here.
KNOWN_FIRMWARE_LEAKS = {}


# host_tools/onboard/: scripts the laptop sends to the board as text (tafel calibrate); they run
# there and import the firmware's modules, so the laptop's rules do not apply to them.
ONBOARD = "onboard"


def _py_files(folder):
    return sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts and
                  not (folder.name == "host_tools" and p.relative_to(folder).parts[0] == ONBOARD))


def _module_name(path, base, package=""):
    parts = list(path.relative_to(base).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(([package] if package else []) + parts)


def imports(path, module):
    """[(line, absolute module name)] of every import in a file; `module` is its own dotted name."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    is_package = path.name == "__init__.py"
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".") if is_package else module.split(".")[:-1]
                base = base[:len(base) - (node.level - 1)]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module
            if node.module:
                found.append((node.lineno, prefix))
            else:  # from . import x: x is a module of the package
                found.extend((node.lineno, prefix + "." + alias.name) for alias in node.names)
    return found


def _top(name):
    return name.split(".")[0]


def firmware_names():
    """The top-level names the device application is imported by (firmware/ is on its sys.path)."""
    names = set()
    for path in FIRMWARE.iterdir():
        if path.suffix == ".py":
            names.add(path.stem)
        elif path.is_dir() and path.name not in ("__pycache__", "port"):
            names.add(path.name)
    # Frozen beside the application by the image's build (firmware/port/manifest.py).
    names.update(("overlay", "_boot", "appimage"))
    return names


def test_the_core_imports_only_itself_and_what_both_interpreters_have():
    wrong = []
    for path in _py_files(CORE):
        for line, name in imports(path, _module_name(path, CORE, "tafel")):
            if _top(name) != "tafel" and _top(name) not in CORE_MAY_IMPORT:
                wrong.append("%s:%d imports %s" % (path.relative_to(ROOT), line, name))
    assert wrong == []


def test_the_core_never_imports_the_firmware_or_the_laptop_tools():
    forbidden = firmware_names() | {"tafel_host"}
    forbidden.discard("tafel")
    wrong = ["%s:%d imports %s" % (path.relative_to(ROOT), line, name)
             for path in _py_files(CORE)
             for line, name in imports(path, _module_name(path, CORE, "tafel"))
             if _top(name) in forbidden]
    assert wrong == []


def test_the_firmware_imports_the_core_never_the_laptop_tools_nor_the_simulator():
    # sim/ is the simulated hardware and port/ the image's build: never deployed, they may import
    # the application; the application never imports them (nor host_tools, on no device).
    found = {}
    for path in _py_files(FIRMWARE):
        rel = path.relative_to(FIRMWARE)
        if rel.parts[0] in ("sim", "port"):
            continue
        for line, name in imports(path, _module_name(path, FIRMWARE)):
            if _top(name) in ("tafel_host", "sim", "host_tools"):
                found.setdefault(rel.as_posix(), []).append("%d: %s" % (line, name))
    unexpected = {k: v for k, v in found.items() if k not in KNOWN_FIRMWARE_LEAKS}
    assert unexpected == {}
    healed = [k for k in KNOWN_FIRMWARE_LEAKS if k not in found]
    assert healed == [], "no longer leaks: take it out of KNOWN_FIRMWARE_LEAKS"


def test_the_laptop_tools_never_import_firmware_modules():
    forbidden = firmware_names()
    wrong = ["%s:%d imports %s" % (path.relative_to(ROOT), line, name)
             for path in _py_files(HOST)
             for line, name in imports(path, _module_name(path, HOST, "tafel_host"))
             if _top(name) in forbidden]
    assert wrong == []


def _ways_around(path):
    """[(line, what)] of imports made without an import statement, and of sys.path changes."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in (
                "spec_from_file_location", "SourceFileLoader", "import_module", "run_path", "run_module"):
            found.append((node.lineno, node.attr))
        elif isinstance(node, ast.Name) and node.id == "__import__":
            found.append((node.lineno, "__import__"))
        elif isinstance(node, ast.Attribute) and node.attr == "path" and \
                isinstance(node.value, ast.Name) and node.value.id == "sys":
            found.append((node.lineno, "sys.path"))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] + ([node.module] if getattr(node, "module", None) else [])
            if any(_top(n) in ("importlib", "runpy") for n in names):
                found.append((node.lineno, "imports " + ", ".join(names)))
    return found


def test_the_scripts_for_the_board_import_nothing_of_the_laptop_and_no_module_imports_them():
    onboard = sorted((HOST / ONBOARD).glob("*.py"))
    assert onboard
    for path in onboard:
        names = [name for _, name in imports(path, "board")]
        assert not [n for n in names if _top(n) in ("tafel_host", "host_tools", "sim")], path
    for path in _py_files(HOST):
        names = [name for _, name in imports(path, _module_name(path, HOST, "tafel_host"))]
        assert not [n for n in names if ONBOARD in n.split(".")], path


def test_the_laptop_tools_load_no_code_by_path():
    wrong = ["%s:%d %s" % (path.relative_to(ROOT), line, what)
             for path in _py_files(HOST) for line, what in _ways_around(path)]
    assert wrong == []


def test_the_reader_of_imports_resolves_relative_ones():
    # The scanner itself: a package's "from . import x" and a module's "from .y import z".
    sample = FIRMWARE / "link" / "commands.py"
    names = [name for _, name in imports(sample, "link.commands")]
    assert "link.update" in names and all(not n.startswith(".") for n in names)
