# Running simulators' serial ports, where `tafel` finds them: one port file per simulator in the data folder's sims/.
#
# `tafel sim` (sim/launcher.py) writes sims/<pid>.port while it serves its
# pseudo-terminal: the port's path on the first line, the simulator's process
# id on the second. It removes the file when it ends. ports.find() tries each
# simulator listed here as one more candidate, besides the USB bridges. A file
# left behind by a simulator that could not remove it (killed, or a laptop that
# went down) is stale: its process is gone or its pseudo-terminal no longer
# exists. A stale file is ignored, and removed when it is found.
import os
from pathlib import Path

FOLDER = "sims"
SUFFIX = ".port"


def folder(base=None):
    """The folder of the port files: <user data dir>/sims (base: another data dir, for tests)."""
    if base is None:
        from ..paths import user_data_dir

        base = user_data_dir()
    return Path(base) / FOLDER


def register(port, pid=None, base=None):
    """Write this simulator's port file (write-new-then-rename: never read half-written); its path."""
    pid = os.getpid() if pid is None else pid
    where = folder(base)
    where.mkdir(parents=True, exist_ok=True)
    path = where / ("%d%s" % (pid, SUFFIX))
    tmp = where / ("%d.tmp" % pid)
    tmp.write_text("%s\n%d\n" % (port, pid), encoding="utf-8")
    os.replace(tmp, path)
    return path


def unregister(path):
    """Remove a port file (quietly: it may be gone already)."""
    try:
        os.remove(path)
    except OSError:
        pass


def process_alive(pid):
    """Whether a process with this id exists (one of another user's counts too)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return False
    return True


def read(path):
    """(port, pid) in a port file, or None when it holds no such pair."""
    try:
        lines = Path(path).read_text(encoding="utf-8").split("\n")
    except (OSError, UnicodeDecodeError):
        return None
    if len(lines) < 2 or not lines[0].strip() or not lines[1].strip().isdigit():
        return None
    return lines[0].strip(), int(lines[1])


def running(base=None, alive=process_alive, exists=os.path.exists):
    """(port, pid) of each simulator serving its port now, in port order; stale files are removed.

    alive(pid) and exists(port) are for tests."""
    where = folder(base)
    try:
        names = sorted(os.listdir(where))
    except OSError:  # no simulator ever ran here
        return []
    found = []
    for name in names:
        if not name.endswith(SUFFIX):
            continue
        path = where / name
        entry = read(path)
        if entry is not None and alive(entry[1]) and exists(entry[0]):
            found.append(entry)
        else:
            unregister(path)
    return sorted(found)
