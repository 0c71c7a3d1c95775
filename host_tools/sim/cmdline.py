# The simulated chip's command line: its files by short names that are the same in every run.
import os

# The options whose values are files. The chip's interpreter keeps its command line in the chip's
# heap for good (MicroPython's unix port interns every argument as a qstr), so the chip gets short
# names that are the same in every run: links, in a folder of this device's that it runs in, to
# the files wherever they are (a pytest tmp_path, CI's checkout, a home directory). The same tree
# then gives the same heap figures in any folder, and the simulator holds a few bytes of them.
_FILE_OPTIONS = ("--flash", "--board", "--serial-in", "--serial-out", "--serial-session", "--app",
                 "--firmware", "--wire-in", "--wire-out")


def short_names(args, folder):
    """The chip's command line `args` with each file option's value a link in `folder` (made now)."""
    out = list(args)
    for i in range(len(out) - 1):
        if out[i] in _FILE_OPTIONS:
            name = out[i][2:]
            link = os.path.join(folder, name)
            if os.path.lexists(link):
                os.unlink(link)
            os.symlink(os.path.abspath(out[i + 1]), link)  # a flash image not made yet: the chip makes it
            out[i + 1] = name
    return out
