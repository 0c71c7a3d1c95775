# Imports go one way (firmware/README.md, "Layers"): firmware -> lib/tafel, host_tools -> lib/tafel,
# lib/tafel imports neither; inside the firmware each layer imports only the layers below it; the
# core and the firmware import only what MicroPython's ESP32 port has; and code loaded without an
# import statement (__import__, importlib, runpy, sys.path changed) is allowed only where named
# below with its reason. Every import statement of every file is read (ast), relative ones resolved.
# The laptop's tools (host_tools/, package tafel_host) are a package per part with only the modules
# several of them share at the top (HOST_SHARED), and no module of theirs imports or reads another
# module's underscore (private) names.
# Each rule is also shown to catch its violation, on a small tree made in the test.
# Scripts the laptop hands to a MicroPython subprocess (bundle_check's version reader, the
# simulator, host_tools/hardware/onboard/) are text, not imports, and run on the device's interpreter.
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "lib" / "tafel"
FIRMWARE = ROOT / "firmware"
HOST = ROOT / "host_tools"

# What MicroPython's ESP32 port (v1.28.0, with Tafel's frozen modules) offers the application.
ESP32_MODULES = {"array", "asyncio", "binascii", "collections", "deflate", "errno", "esp32", "flashbdev",
                 "framebuf", "gc", "hashlib", "io", "json", "machine", "micropython", "network", "os", "re",
                 "select", "socket", "struct", "sys", "time", "ucollections", "vfs"}
# A core module that runs on the laptop alone, and what it may import besides.
CORE_HOST_ONLY = {"bundle/inflate_zlib.py": {"zlib"}}  # CPython's inflating; never frozen (port/manifest.py)

# The firmware's layers, lowest first (firmware/README.md, "Layers"): a module imports its own
# package, the core, the port's modules and lower layers only; modules of one layer never import
# each other (ui and link are both driven by the app's loop, neither by the other).
LAYERS = (
    ("appimage", "overlay"),  # frozen beside the application: what the image holds, an update laid over it
    ("bootsel", "clock", "drivers", "power", "reserve", "unload"),  # the boot's choice of slot, the chip's parts
    ("board",),  # the hardware chosen in one place, from the profile
    ("store",),  # the flash: games, settings, the raw scan
    ("session",),  # the running game: a record on flash, then in memory
    ("update", "club"),  # staging and switching a new version; a paired table's link to the club's hub
    ("link", "ui"),  # the serial protocol; the screens
    ("recovery",),  # the device when its flash does not mount
    ("runner", "startup"),  # the main loop; the first screen
    ("assemble",),  # the device put together (main.py's one call)
    ("boot", "main"),  # the files MicroPython runs by name
)

# Code loaded without an import statement, where it is meant: (file, what) -> why.
DYNAMIC_LOADS = {
    ("lib/tafel/__init__.py", "__import__"): "the package's names imported when first used (tafel.Game)",
    ("lib/tafel/rulebook.py", "__import__"): "the rules of one language, tafel.rulebook_de or _en",
    ("firmware/ui/app.py", "__import__"): "the texts of the language chosen, ui.texts_de or ui.texts_en",
    ("firmware/ui/registry.py", "__import__"): "a screen's module when it opens (ui.*, the registry's table)",
    ("firmware/bootsel.py", "sys.path"): "the boot puts the chosen slot before the frozen modules",
    ("firmware/update/complete.py", "sys.path"): "the new slot's version module read from its own folder",
    ("firmware/update/complete.py", "__import__"): "that version module, imported by its name",
}

ONBOARD = ("hardware", "onboard")  # host_tools/hardware/onboard/: scripts the laptop sends to the board as text
#     (tafel calibrate)

# The laptop's tools: at the top of host_tools/ only what several packages share; everything else in its package.
HOST_SHARED = {"__init__.py", "cli.py", "exits.py", "paths.py", "progress.py", "isotime.py", "app_files.py",
               "rules_cli.py", "lang.py", "texts_de.py", "texts_en.py",
               "texts_de_tools.py", "texts_en_tools.py", "texts_de_help.py", "texts_en_help.py",
               "texts_de_update.py", "texts_en_update.py", "texts_de_rescue.py", "texts_en_rescue.py",
               "texts_de_board.py", "texts_en_board.py", "texts_de_flash.py", "texts_en_flash.py",
               "texts_de_club.py", "texts_en_club.py", "texts_de_pair.py", "texts_en_pair.py", "argparse_de.py"}
HOST_PACKAGES = {
    "sim": "`tafel sim`, the simulator's launcher",
    "link": "the laptop's end of the USB serial link, exports",
    "rescue": "`tafel rescue`",
    "update": "bundles, sending and serving updates, the first install",
    "hardware": "board profiles, their documents, `tafel calibrate`",
    "history": "the history of games, statistics, charts, reports",
    "simboard": "the simulated board (also imported by bare name, simboard.*, on MicroPython)",
    "club": "`tafel club`: the club evening's hub (MQTT), its registry of tables, the live board, tournament rounds",
}
# Names with a leading underscore that are a public API all the same: a namedtuple's methods.
NAMEDTUPLE_API = {"_make", "_replace", "_fields", "_asdict", "_field_defaults"}


def _py_files(folder):
    return sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts and
                  not (folder.name == "host_tools" and p.relative_to(folder).parts[:2] == ONBOARD))


def _app_files(firmware):
    """The firmware's application files: not sim/ (the simulated hardware) nor port/ (the image's build)."""
    return [p for p in _py_files(firmware) if p.relative_to(firmware).parts[0] not in ("sim", "port")]


def _module_name(path, base, package=""):
    parts = list(path.relative_to(base).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(([package] if package else []) + parts)


def _from(node, module, is_package):
    """The absolute name of what an ImportFrom node imports from (a relative one resolved)."""
    if not node.level:
        return node.module
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports(path, module):
    """[(line, absolute module name)] of every import in a file; `module` is its own dotted name."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    is_package = path.name == "__init__.py"
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            prefix = _from(node, module, is_package)
            if node.module:
                found.append((node.lineno, prefix))
            else:  # from . import x: x is a module of the package
                found.extend((node.lineno, prefix + "." + alias.name) for alias in node.names)
    return found


def _top(name):
    return name.split(".")[0]


def firmware_names(firmware=FIRMWARE):
    """The top-level names the device application is imported by (firmware/ is on its sys.path)."""
    names = {p.stem if p.suffix == ".py" else p.name for p in firmware.iterdir()
             if (p.suffix == ".py" or p.is_dir()) and p.name not in ("__pycache__", "port")}
    names.update(("overlay", "_boot", "appimage"))  # frozen beside the application (port/manifest.py)
    return names


# ---- the rules, each over a tree given -------------------------------------------------------


def core_leaks(core, firmware=FIRMWARE):
    """The core's imports of anything but itself and what the ESP32 port has (the firmware's and
    the laptop's names are none of those)."""
    wrong = []
    for path in _py_files(core):
        allowed = ESP32_MODULES | CORE_HOST_ONLY.get(path.relative_to(core).as_posix(), set())
        for line, name in imports(path, _module_name(path, core, "tafel")):
            if _top(name) != "tafel" and _top(name) not in allowed:
                wrong.append("%s:%d imports %s" % (path.name, line, name))
    return wrong


def firmware_leaks(firmware):
    """The application's imports of what a device does not have: the laptop's tools, the simulator,
    a module MicroPython's ESP32 port lacks."""
    own = firmware_names(firmware) - {"sim"}
    wrong = []
    for path in _app_files(firmware):
        for line, name in imports(path, _module_name(path, firmware)):
            if _top(name) not in own | ESP32_MODULES | {"tafel"}:
                wrong.append("%s:%d imports %s" % (path.relative_to(firmware).as_posix(), line, name))
    return wrong


def layer_breaches(firmware):
    """Imports that go up or sideways between the firmware's layers."""
    rank = {name: i for i, layer in enumerate(LAYERS) for name in layer}
    wrong = []
    for path in _app_files(firmware):
        rel = path.relative_to(firmware)
        mine = rel.parts[0][:-3] if rel.suffix == ".py" and len(rel.parts) == 1 else rel.parts[0]
        if mine not in rank:
            wrong.append("%s is in no layer (LAYERS)" % rel.as_posix())
            continue
        for line, name in imports(path, _module_name(path, firmware)):
            top = _top(name)
            if top in rank and top != mine and rank[top] >= rank[mine]:
                wrong.append("%s:%d imports %s (%s)" % (rel.as_posix(), line, name,
                                                        "same layer" if rank[top] == rank[mine] else "a layer above"))
    return wrong


def _ways_around(path):
    """[(line, what)] of imports made without an import statement, and of sys.path changes."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in (
                "spec_from_file_location", "SourceFileLoader", "import_module", "run_path", "run_module"):
            found.append((node.lineno, node.attr))
        elif isinstance(node, ast.Name) and node.id in ("__import__", "exec", "eval"):
            found.append((node.lineno, node.id))
        elif isinstance(node, ast.Attribute) and node.attr == "path" and \
                isinstance(node.value, ast.Name) and node.value.id == "sys":
            found.append((node.lineno, "sys.path"))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] + ([node.module] if getattr(node, "module", None) else [])
            if any(_top(n) in ("importlib", "runpy") for n in names):
                found.append((node.lineno, "imports " + ", ".join(names)))
    return found


def dynamic_loads(root, folders, allowed=None):
    """Loads without an import statement in the files of `folders` (under root) that `allowed`
    ((file, what) -> why) does not name."""
    allowed = DYNAMIC_LOADS if allowed is None else allowed
    wrong = []
    for folder in folders:
        files = _app_files(folder) if folder.name == "firmware" else _py_files(folder)
        for path in files:
            rel = path.relative_to(root).as_posix()
            wrong += ["%s:%d %s" % (rel, line, what) for line, what in _ways_around(path) if (rel, what) not in allowed]
    return wrong


def _private(name):
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _chain(node):
    """['a', 'b', 'c'] of an expression a.b.c made of names only; None for anything else."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return [node.id] + parts[::-1] if isinstance(node, ast.Name) else None


def private_uses(host, package="tafel_host"):
    """Where a module of the laptop's tools imports another of its modules' underscore names (from .x
    import _y), or reads one off a name it imported from one (x._y, x.Link._y, Link._y)."""
    wrong = []
    for path in _py_files(host):
        rel = path.relative_to(host).as_posix()
        module = _module_name(path, host, package)
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        imported = {}  # local name -> the package's name it is bound to
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                source = _from(node, module, path.name == "__init__.py")
                if _top(source or "") != package:
                    continue
                for alias in node.names:
                    if _private(alias.name):
                        wrong.append("%s:%d imports %s from %s" % (rel, node.lineno, alias.name, source))
                    imported[alias.asname or alias.name] = source + "." + alias.name
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if _top(alias.name) == package:
                        imported[alias.asname or package] = alias.name if alias.asname else package
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and _private(node.attr) and node.attr not in NAMEDTUPLE_API:
                chain = _chain(node.value)
                if chain and chain[0] in imported:
                    wrong.append("%s:%d uses %s.%s" % (rel, node.lineno, ".".join(chain), node.attr))
    return wrong


def host_layout_strays(host):
    """What lies at the top of host_tools/ besides the shared modules (HOST_SHARED) and the packages."""
    wrong = []
    for path in sorted(host.iterdir()):
        if path.name == "__pycache__" or path.name.startswith("."):
            continue
        if path.is_dir():
            if path.name not in HOST_PACKAGES:
                wrong.append("%s/ is not one of the packages (HOST_PACKAGES)" % path.name)
            elif not (path / "__init__.py").is_file():
                wrong.append("%s/ has no __init__.py" % path.name)
        elif path.name not in HOST_SHARED:
            wrong.append("%s is not a shared module (HOST_SHARED): it belongs in its package" % path.name)
    return wrong


# ---- the rules on this repository ------------------------------------------------------------


def test_the_core_imports_only_itself_and_what_the_esp32_port_has():
    assert core_leaks(CORE) == []


def test_the_firmware_imports_only_itself_the_core_and_what_the_esp32_port_has():
    assert firmware_leaks(FIRMWARE) == []


def test_each_firmware_layer_imports_only_the_layers_below_it():
    assert layer_breaches(FIRMWARE) == []


def test_the_laptop_tools_never_import_firmware_modules():
    forbidden = firmware_names()
    wrong = ["%s:%d imports %s" % (path.relative_to(ROOT), line, name)
             for path in _py_files(HOST)
             for line, name in imports(path, _module_name(path, HOST, "tafel_host"))
             if _top(name) in forbidden]
    assert wrong == []


def test_code_is_loaded_without_an_import_statement_only_where_named():
    assert dynamic_loads(ROOT, (CORE, FIRMWARE, HOST)) == []
    named = {path for path, _ in DYNAMIC_LOADS}
    assert all((ROOT / path).is_file() for path in named)  # no stale entries


def test_the_scripts_for_the_board_import_nothing_of_the_laptop_and_no_module_imports_them():
    onboard = sorted(HOST.joinpath(*ONBOARD).glob("*.py"))
    assert onboard
    for path in onboard:
        names = [name for _, name in imports(path, "board")]
        assert not [n for n in names if _top(n) in ("tafel_host", "host_tools", "sim")], path
    for path in _py_files(HOST):
        names = [name for _, name in imports(path, _module_name(path, HOST, "tafel_host"))]
        assert not [n for n in names if ONBOARD[-1] in n.split(".")], path


def test_no_laptop_module_imports_or_reads_another_modules_private_names():
    assert private_uses(HOST) == []


def test_the_top_of_the_laptop_tools_holds_only_the_shared_modules_and_the_packages():
    assert host_layout_strays(HOST) == []
    assert all((HOST / name).is_file() for name in HOST_SHARED)  # no stale entries
    assert all((HOST / name / "__init__.py").is_file() for name in HOST_PACKAGES)


def test_every_firmware_module_is_in_a_layer():
    named = {name for layer in LAYERS for name in layer}
    assert named - {"appimage", "overlay"} <= firmware_names(), "a layer names a module that is gone"


# ---- each rule catches what it is for -------------------------------------------------------


def _tree(tmp_path, files):
    for rel, text in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


def test_a_core_module_importing_the_firmware_or_a_host_only_module_is_caught(tmp_path):
    core = _tree(tmp_path / "tafel", {"a.py": "import store\n", "b.py": "import subprocess\n",
                                      "c.py": "from . import a\nimport struct\n",
                                      "bundle/inflate_zlib.py": "import zlib\n", "d.py": "import zlib\n"})
    assert core_leaks(core) == ["a.py:1 imports store", "b.py:1 imports subprocess", "d.py:1 imports zlib"]


def test_a_firmware_module_importing_the_laptop_the_simulator_or_a_desktop_module_is_caught(tmp_path):
    fw = _tree(tmp_path / "firmware", {"store/store.py": "import subprocess, pathlib\nimport json\n",
                                       "ui/x.py": "from tafel_host import sim\nfrom sim import device\n",
                                       "sim/device.py": "import subprocess\n", "session.py": "import gc\n"})
    assert firmware_leaks(fw) == ["store/store.py:1 imports subprocess", "store/store.py:1 imports pathlib",
                                  "ui/x.py:1 imports tafel_host", "ui/x.py:2 imports sim"]


def test_an_import_up_or_sideways_between_firmware_layers_is_caught(tmp_path):
    fw = _tree(tmp_path / "firmware", {"store/mount.py": "from recovery import rawscan\n",
                                       "link/commands.py": "from ui import app\nfrom . import export\n",
                                       "ui/app.py": "import session\nfrom store.errors import StoreError\n",
                                       "session.py": "import store.store\n", "gadget.py": "import gc\n"})
    assert layer_breaches(fw) == ["gadget.py is in no layer (LAYERS)",
                                  "link/commands.py:1 imports ui (same layer)",
                                  "store/mount.py:1 imports recovery (a layer above)"]


def test_a_module_loaded_by_name_or_by_path_where_none_is_named_is_caught(tmp_path):
    root = _tree(tmp_path, {"firmware/store/x.py": "m = __import__('json')\n",
                            "firmware/ui/app.py": "t = __import__('ui.texts_de')\n",
                            "lib/tafel/y.py": "import sys\nsys.path.insert(0, '/')\n",
                            "host_tools/z.py": "import importlib\nimportlib.import_module('x')\n"})
    allowed = {("firmware/ui/app.py", "__import__"): "the texts"}
    found = dynamic_loads(root, (root / "lib" / "tafel", root / "firmware", root / "host_tools"), allowed)
    assert found == ["lib/tafel/y.py:2 sys.path", "firmware/store/x.py:1 __import__",
                     "host_tools/z.py:1 imports importlib", "host_tools/z.py:2 import_module"]


def test_a_laptop_module_using_another_modules_private_name_is_caught(tmp_path):
    host = _tree(tmp_path / "host_tools", {
        "__init__.py": "",
        "link/__init__.py": "",
        "link/client.py": "import collections\n_LIMIT = 1\nFrame = collections.namedtuple('Frame', 'a')\n"
                          "class Link:\n    _seq = 0\ndef _helper(link):\n    return link._seq + _LIMIT\n",
        "link/cli.py": "from .client import _helper, Link\nfrom . import client\nx = client._LIMIT\ny = Link._seq\n",
        "update/__init__.py": "",
        "update/client.py": "import tafel_host.link.client\nfrom tafel_host import __version__\n"
                            "from ..link import client as link_client\nfrom ..link.client import Frame\n"
                            "a = link_client.Link._seq\nb = tafel_host.link.client._LIMIT\n"
                            "c = Frame._make([1])\n_mine = 1\nd = _mine\n",
        "hardware/onboard/calibrate.py": "from tafel_host.link.client import _helper\n",  # text for the board
    })
    assert private_uses(host) == ["link/cli.py:1 imports _helper from tafel_host.link.client",
                                  "link/cli.py:3 uses client._LIMIT", "link/cli.py:4 uses Link._seq",
                                  "update/client.py:5 uses link_client.Link._seq",
                                  "update/client.py:6 uses tafel_host.link.client._LIMIT"]


def test_a_module_or_folder_at_the_top_of_the_laptop_tools_besides_the_shared_ones_is_caught(tmp_path):
    host = _tree(tmp_path / "host_tools", {"__init__.py": "", "cli.py": "", "exits.py": "", "sim_device.py": "",
                                           "sim/__init__.py": "", "sim/device.py": "", "gadgets/x.py": "",
                                           "update/client.py": "", "__pycache__/cli.cpython-311.pyc": ""})
    assert host_layout_strays(host) == ["gadgets/ is not one of the packages (HOST_PACKAGES)",
                                        "sim_device.py is not a shared module (HOST_SHARED): it belongs in its package",
                                        "update/ has no __init__.py"]


def test_the_reader_of_imports_resolves_relative_ones():
    # The scanner itself: a package's "from . import x" and a module's "from .y import z".
    sample = FIRMWARE / "link" / "commands.py"
    names = [name for _, name in imports(sample, "link.commands")]
    assert "link.update" in names and all(not n.startswith(".") for n in names)
