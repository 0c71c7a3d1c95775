# Modules let go of while the table plays: their dictionaries and functions go back to the heap.
#
# A frozen module's code stays in flash, but importing it puts its dictionary and a function object
# for each of its functions into the heap, for as long as the module table (and its package) hold
# it. Code needed once a boot, once a session or only while paired is dropped with forget() when
# done and imported again when needed. (tafel/bundle/header.py has the same for the core's update
# modules, which run on CPython too.)
import sys


def forget(names):
    """Drop the modules named in full ("link.commands") from the module table and their packages."""
    for name in names:
        if sys.modules.pop(name, None) is not None:
            package, _, leaf = name.rpartition(".")
            mod = sys.modules.get(package)
            if mod is not None and leaf in mod.__dict__:
                delattr(mod, leaf)
