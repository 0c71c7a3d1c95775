# Where the device application's files are: this checkout, or the copy installed with the package.
#
# `tafel sim`, `tafel bundle build`, `tafel flash` and `tafel serve-update` need the firmware itself
# (firmware/, lib/tafel/) and the board profiles (hardware/boards/). A wheel (pip install ., pipx
# install .) carries them as package data, byte for byte, in tafel_host/app/ laid out as in the
# checkout (pyproject.toml); an editable install (make's .venv) runs from the checkout, where the
# package's folder is host_tools/ beside firmware/. The installed copy wins when it is there, so
# an installed tool never reads a checkout it happens to sit near.
from pathlib import Path

HERE = Path(__file__).resolve().parent
PACKAGED = HERE / "app"  # the wheel's copy; never in a checkout
MARKER = Path("firmware") / "sim" / "run.py"  # a tree that holds the application


def root():
    """The folder holding firmware/, lib/tafel/ and hardware/boards/."""
    for candidate in (PACKAGED, HERE.parent):
        if (candidate / MARKER).is_file():
            return candidate
    return HERE.parent  # a broken install: callers say what is missing where they look


def installed():
    """True when the application's files are the copy installed with the package."""
    return root() == PACKAGED
