# An update's modules laid over the frozen application (firmware/port/overlay.py), module by module.
#
# The image's frozen modules are played by a folder here (what ".frozen" is on the device): the
# overlay only ever names folders, so the import machinery it steers is the same.
import os
import sys

import pytest

from port import overlay

ROOT = "/tmp/tafel-test-overlay-%08x" % int.from_bytes(os.urandom(4), "big")
BASE = ROOT + "/image"
SLOT = ROOT + "/app/b"

IMAGE = {
    "ovtop.py": "WHO = 'image'\n",
    "ovmain.py": "import ovtop\nfrom ovpkg import first\nfrom ovpkg.second import SECOND\nWHO = (ovtop.WHO, first.WHO, SECOND)\n",
    "ovpkg/first.py": "WHO = 'image'\n",
    "ovpkg/second.py": "from . import first\nSECOND = 'image+' + first.WHO\n",
    "ovpkg/third.py": "WHO = 'image'\n",
    "ovcore/__init__.py": "KIND = 'image'\n",  # frozen at the image's root, as the core (tafel) is
    "ovcore/rules.py": "WHO = 'image'\n",
}


def _write(folder, files):
    for path, text in files.items():
        parts = (folder + "/" + path).split("/")
        for i in range(2, len(parts)):
            try:
                os.mkdir("/".join(parts[:i]))
            except OSError:
                pass
        with open(folder + "/" + path, "w") as f:
            f.write(text)


def _remove(path):
    try:
        entries = list(os.ilistdir(path))
    except OSError:
        return
    for entry in entries:
        if entry[1] == 0x4000:
            _remove(path + "/" + entry[0])
        else:
            os.remove(path + "/" + entry[0])
    os.rmdir(path)


def _fresh(slot_files):
    """The image as IMAGE says, a slot with exactly slot_files, the overlay installed over it."""
    overlay.uninstall()
    _remove(SLOT)
    for name in list(sys.modules):
        if name.startswith("ov"):
            del sys.modules[name]
    _write(BASE, IMAGE)
    _write(ROOT + "/app/b", slot_files)
    return overlay.install(SLOT, base=BASE)


def _image_path():
    # The image's modules, where .frozen stands on sys.path on the device.
    if BASE not in sys.path:
        sys.path.append(BASE)


class _laid_over:
    """with _laid_over(slot_files) as count: the image on the path, the slot laid over it; back after."""

    def __init__(self, slot_files):
        self.slot_files = slot_files

    def __enter__(self):
        _image_path()
        return _fresh(self.slot_files)

    def __exit__(self, *exc):
        overlay.uninstall()
        return False


def test_the_slot_lists_each_module_it_holds_by_name():
    found = overlay.modules(ROOT + "/none", lambda path: [])
    assert found == {}
    _write(ROOT + "/scan", {"runner.mpy": "", "main.py": "", "ui/home.mpy": "", "lib/tafel/game.mpy": "",
                            "lib/tafel/__init__.mpy": "", "update/__init__.mpy": ""})
    found = overlay.modules(ROOT + "/scan", overlay._os_listdir)
    assert found == {"runner": ROOT + "/scan", "ui.home": ROOT + "/scan/ui", "tafel.game": ROOT + "/scan/lib/tafel",
                     "tafel": ROOT + "/scan/lib", "update": ROOT + "/scan"}  # main.py runs by name, not imported


def test_without_a_slot_everything_comes_from_the_image():
    _image_path()
    assert _fresh({}) == 0
    import ovmain

    assert ovmain.WHO == ("image", "image", "image+image")
    assert overlay._real is None  # nothing to lay over: the interpreter's own import stays


def test_one_module_of_a_package_comes_from_the_slot_and_its_neighbours_from_the_image():
    with _laid_over({"ovpkg/first.py": "WHO = 'slot'\n"}) as count:
        assert count == 1
        import ovmain
        from ovpkg import third

        assert ovmain.WHO == ("image", "slot", "image+slot")  # second (image) sees the slot's first
        assert third.WHO == "image"
        assert sys.modules["ovpkg"].__path__ == BASE + "/ovpkg"  # pointed back after the look-up


def test_a_top_level_module_from_the_slot_imports_the_image_s_packages():
    with _laid_over({"ovtop.py": "from ovpkg import third\nWHO = 'slot+' + third.WHO\n"}):
        import ovmain

        assert ovmain.WHO == ("slot+image", "image", "image+image")
        assert BASE in sys.path and SLOT not in sys.path


def test_a_package_whose_init_comes_from_the_slot_keeps_the_image_s_other_modules():
    with _laid_over({"lib/ovcore/__init__.py": "from ovcore import rules\nKIND = 'slot+' + rules.WHO\n"}):
        import ovcore
        from ovcore import rules

        assert ovcore.KIND == "slot+image" and rules.WHO == "image"


def test_a_module_missing_everywhere_is_still_an_import_error():
    with _laid_over({"ovpkg/first.py": "WHO = 'slot'\n"}):
        with pytest.raises(ImportError):
            import ovpkg.nowhere  # noqa: F401


def test_a_plain_module_from_the_slot_stays_a_module_when_names_are_imported_from_it():
    # `from link.link import Link` with link/link.mpy in the slot: Link is a name in the module,
    # not a module of a package. Once the module was loaded, the look-up for such a name once
    # gave the module a __path__, and every relative import inside it then searched it as a
    # package ("no module named 'link.link.commands'": an update that changed the link's module
    # left the laptop without a link).
    slot = {"ovpkg/second.py": "from . import first\nSECOND = 'slot+' + first.WHO\n\n"
                               "def later():\n    from . import third\n    return third.WHO\n"}
    with _laid_over(slot):
        from ovpkg.second import SECOND, later

        assert SECOND == "slot+image"
        assert not hasattr(sys.modules["ovpkg.second"], "__path__")
        assert later() == "image"
