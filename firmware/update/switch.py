# The end of Stager.finish() (update/stage.py): the new slot made whole, then the pointer switched.
#
# Imported only once the head is checked again, so this code is not in the heap beside the crypto.
# Before the switch update/complete.py checks that the slot is a whole application of the manifest's version.
# It works on the Stager's own state and helpers, as the method it was.
import bootsel
from tafel.bundle.errors import UpdateError


def switch(st):
    """Copy the files shared with the running version into the target slot, drop those of an
    older version and those the firmware image holds, point bootsel at the slot (one rename) and clear the stage; the new version."""
    from update.health import feed

    m = st.manifest
    for entry in m.files:
        feed()  # a version on probation has its watchdog running: this may take a while on the chip
        if st._in_image(entry) or st._staged(entry):  # the image holds it, or the slot has it
            continue
        if not st._local(entry):
            raise UpdateError("incomplete", entry.path)
        _copy(st, entry)
        if not st._staged(entry):
            raise UpdateError("bad_file", (entry.path, "sha256"))
    _drop_extra(st, "app/" + st.target, "", m)
    from update import complete

    try:
        complete.check(st)  # main.py, trust store, the version module's VERSION: or no switch
    except UpdateError:
        st._clear_stage()  # this bundle can never switch: forgotten, as one refused at the head
        raise
    version = m.version
    running = bootsel.read(st.fs) or {}
    state = {"slot": st.target, "prev": st.current, "version": version, "prev_version": st.running_version,
             "id": _hex(st._id), "prev_id": running.get("id") or "", "tries": 0, "crashes": None}
    bootsel.write(st.fs, state)  # the switch: one rename
    st._clear_stage()
    return version


def _hex(data):
    from binascii import hexlify

    return hexlify(data).decode() if data else ""


def _copy(st, entry):
    dst = st._slot(st.target, entry.path)
    st._mkdirs(dst)
    src = st.disk.open(st._slot(st.current, entry.path), "rb")
    out = st.disk.open(dst + ".new", "wb")
    buf = st.buf
    try:
        while True:
            n = src.readinto(buf)
            if not n:
                break
            out.write(memoryview(buf)[:n])
    finally:
        out.close()
        src.close()
    st.disk.rename(dst + ".new", dst)


def _drop_extra(st, slot, sub, m):
    # Files of the target slot the manifest does not name (an older version's) go. Subfolders
    # after the folder's own files, so its listing is not held through theirs.
    folder = slot + ("/" + sub if sub else "")
    subs = []
    for name, kind in st.disk.entries(folder):
        rel = sub + "/" + name if sub else name
        if kind == 0x4000:
            subs.append(rel)
        else:
            entry = m.file(rel)
            if entry is None or st._in_image(entry):  # an older version's, or the image's own
                st.disk.remove(folder + "/" + name)
    for rel in subs:
        _drop_extra(st, slot, rel, m)
