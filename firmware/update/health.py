# The running version says it is healthy: called by startup.start once the UI
# is up and the storage mounted (bootsel.py explains trial and rollback).
#
#   rolled = health.confirm(vol)     # None, or the version that was rolled back
#   health.feed()                    # the main loop, while a trial boot's watchdog runs
#
# vol: None on the device (the flash at /), the VfsLfs2 object in the
# simulator. A device without a pointer (the app flat at /) has nothing to
# confirm: one failed open, nothing written.
import bootsel
from store.fsys import Disk


def confirm(vol=None):
    """Ends a trial (the version stays) and takes the rollback note; the rolled-back version or None."""
    st = bootsel.read(vol)
    if st is None:
        return None
    rolled = st.get("rolled")
    if st.get("tries") is None and not rolled:
        return None
    trial = st.get("tries") is not None
    st["tries"] = None
    st["rolled"] = None
    bootsel.write(vol, st)
    if trial:  # a switch cut short before it cleared the stage: what is left there is done with
        disk = Disk(vol, "")
        for name, _ in disk.listdir("app/stage"):
            disk.remove("app/stage/" + name)
    return rolled


def feed():
    """Keeps a trial boot's watchdog (bootsel.wdt) from resetting a version that confirmed itself."""
    if bootsel.wdt is not None:
        bootsel.wdt.feed()
