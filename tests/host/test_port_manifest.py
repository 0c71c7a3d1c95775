# The firmware image freezes exactly the application a bundle carries (less main.py): what
# firmware/port/manifest.py names is what host_tools/update/appimage.py tells staging the image holds.
# A module a bundle has but the image does not freeze would be left out of every update's slot
# (the image "holds" it by its digest) and then be missing on the device.
from pathlib import PurePosixPath

from simlink import ROOT
from tafel_host.update import bundle_build

PORT = ROOT / "firmware" / "port"


def frozen_by_the_manifest():
    """The device paths (as in a bundle) of the .py files manifest.py freezes from the application."""
    found = set()

    def package(name, files=None, base_path="."):
        base = (PORT / base_path).resolve()
        paths = (base / name).rglob("*.py") if files is None else [base / name / f for f in files]
        for path in paths:
            if "__pycache__" not in path.parts:
                found.add(_device_path(path.resolve()))

    def module(name, base_path="."):
        found.add(_device_path((PORT / base_path / name).resolve()))

    def include(path):  # the board's manifest includes asyncio's and MicroPython's own: not ours
        pass

    exec((PORT / "manifest.py").read_text(), {"package": package, "module": module, "include": include,
                                              "__file__": str(PORT / "manifest.py")})
    return {p for p in found if p is not None}


def _device_path(path):
    firmware, core = (ROOT / "firmware").resolve(), (ROOT / "lib" / "tafel").resolve()
    if core in path.parents:
        return "lib/tafel/" + path.relative_to(core).as_posix()
    if firmware in path.parents:
        return path.relative_to(firmware).as_posix()
    return None  # overlay.py, appimage.py: the image's own


def test_the_image_freezes_every_module_a_bundle_carries_but_main_py():
    carried = {device for device, _ in bundle_build.sources()} - {"main.py"}
    frozen = frozen_by_the_manifest() - {"port/overlay.py"}
    assert sorted(carried - frozen) == []  # a bundle module the image lacks
    assert sorted(frozen - carried) == []  # and nothing frozen that no bundle carries
    assert not any(PurePosixPath(p).parts[0] == "sim" for p in frozen)
