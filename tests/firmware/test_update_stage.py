# update/stage.py on its own: what it keeps in step with other modules without importing them, and
# the rule that only a whole application is switched to (update/parts.py check_app at the head,
# update/complete.py at the switch). Signed bundles come as fixtures (appbundle.py: a whole app;
# crypto/test_bundle_read.py FIXTURE: one without trust store and version module); the cases a
# fixture cannot make (a bundle without main.py, a version.mpy saying another version) are staged
# from bundles built on CPython in tests/host/test_update_device.py.
import hashlib
import os
import sys

import pytest
from crypto.test_bundle_read import FIXTURE, PUBLIC

import bootsel
from appbundle import APP, HEAD, MAIN, VERSION
from sim.flashdev import FlashDev
from store import space
from store.fsys import Disk
from store.mount import mount
from tafel.bundle import manifest as fmt
from tafel.bundle import parts
from tafel.bundle.errors import UpdateError
from update import complete, room
from update.stage import Stager


def test_an_update_leaves_the_running_game_and_a_new_one_their_flash():
    # room.py holds the reserve as its own constant (importing store/space.py costs the
    # update's heap); it must stay what the storage code keeps back.
    assert room.RESERVE == space.RUNNING + space.NEW_GAME


def stager(vol=None):
    if vol is None:
        vol, _ = mount(FlashDev())
    return Stager(vol, [PUBLIC], running_version="1.0.0", boot_version=1, mpy=None)


def head_of(data):
    return data[:fmt.HEADER_SIZE + fmt.unpack_header(data[:fmt.HEADER_SIZE])[0] + fmt.SIGNATURE_SIZE]


def stage_all(st, data):
    """What the laptop sends: the head, then every body the device still wants."""
    head = head_of(data)
    st.begin(hashlib.sha256(head).digest()[:8], len(head))
    st.put(0, 0, head)
    for i, got in st.status()[2]:
        entry = st.manifest.files[i]
        st.put(i + 1, got, data[entry.offset + got:entry.offset + entry.stored])


def refused(call, *args):
    with pytest.raises(UpdateError) as info:
        call(*args)
    return info.value.key, info.value.detail


def body(path):
    m = fmt.parse(APP[fmt.HEADER_SIZE:HEAD - fmt.SIGNATURE_SIZE], APP[12:20], HEAD)
    entry = m.file(path)
    assert entry.encoding == "raw"
    return entry, APP[entry.offset:entry.offset + entry.stored]


def test_the_switch_feeds_a_running_watchdog_file_by_file():
    # A version on probation has its watchdog running while the next update switches: the
    # switch's work (copies, hashes, the completeness check) must not starve it.
    class Watchdog:
        fed = 0

        def feed(self):
            self.fed += 1

    st = stager()
    stage_all(st, APP)
    files = len(st.manifest.files)
    bootsel.wdt = dog = Watchdog()
    try:
        assert st.finish() == VERSION
    finally:
        bootsel.wdt = None
    assert dog.fed == files  # once a file


def test_a_new_stager_takes_up_a_transfer_from_what_is_on_flash():
    # The link lets its Stager go when a session ends (link/link.py end()); the next session's
    # requests make a new one, which checks the head on flash again and goes on where it stopped.
    vol, _ = mount(FlashDev())
    st = stager(vol)
    head = head_of(APP)
    st.begin(hashlib.sha256(head).digest()[:8], len(head))
    st.put(0, 0, head)
    wanted = st.status()[2]
    assert wanted
    st = stager(vol)
    assert st.manifest is None and st.status() == (2, len(head), wanted)
    m = fmt.parse(APP[fmt.HEADER_SIZE:HEAD - fmt.SIGNATURE_SIZE], APP[12:20], HEAD)
    for i, got in wanted:
        entry = m.files[i]
        data = APP[entry.offset + got:entry.offset + entry.stored]
        half = len(data) // 2
        st = stager(vol)  # a new one for each body, which comes as a counted block does: in pieces
        assert st.put(i + 1, got, (data[:half], memoryview(data)[half:])) == entry.stored
    assert stager(vol).status()[2] == []
    assert stager(vol).finish() == VERSION


def test_a_bundle_fed_in_one_stream_over_an_older_slot():
    # Stager.feed (a first install, sim/install.py): the target slot still holds an older
    # version's files at the same paths; they are read to see whether they match, and that must
    # not touch the bytes about to be written.
    import io

    vol, _ = mount(FlashDev())
    disk = Disk(vol, "")
    for folder in ("app", "app/a", "app/a/lib", "app/a/lib/tafel", "app/a/update"):
        disk.mkdir(folder)
    for path in ("main.py", "lib/tafel/version.mpy", "lib/tafel/words.txt", "update/trusted.mpy"):
        disk.write_new("app/a/" + path, b"an older version's " + path.encode())
    st = stager(vol)
    st.feed(io.BytesIO(APP))
    assert st.finish() == VERSION
    assert disk.read("app/a/main.py") == MAIN


# ---- a whole application, or nothing switched ---------------------------------------------


def test_a_whole_application_is_staged_and_switched():
    st = stager()
    stage_all(st, APP)
    assert st.finish() == VERSION
    assert bootsel.read(st.fs)["slot"] == "a" and bootsel.read(st.fs)["version"] == VERSION
    disk = Disk(st.fs, "")
    for path in parts.APP_FILES:
        assert disk.size("app/a/" + path), path


def test_a_bundle_without_trust_store_and_version_module_is_refused_at_its_head():
    # Signed and sound as a bundle (the reader takes it), but no application a device can run on:
    # refused as soon as its head is there, before a single body is sent.
    st = stager()
    head = head_of(FIXTURE)
    st.begin(hashlib.sha256(head).digest()[:8], len(head))
    assert refused(st.put, 0, 0, head) == ("incomplete_app", "update/trusted.mpy")
    assert st.status() == (0, 0, [])  # the stage is forgotten
    assert bootsel.read(st.fs) is None  # nothing switched: the running version runs
    assert Disk(st.fs, "").entries("app/a") == []


def manifest(paths):
    lines = ["app 1.0", "min-boot 0", "downgrade no", "mpy 6", "window 10", "files %d" % len(paths)]
    lines += ["file %s 1 raw 1 %s" % ("ab" * 32, path) for path in sorted(paths)]
    return fmt.parse(("\n".join(lines) + "\n").encode(), b"\0" * 8, 0)


def test_the_head_wants_main_py_the_trust_store_and_the_version_module():
    whole = ["main.py", "update/trusted.mpy", "lib/tafel/version.mpy", "ui/home.mpy"]
    parts.check_app(manifest(whole))
    assert refused(parts.check_app, manifest([])) == ("incomplete_app", None)  # files 0
    for path in whole[:3]:
        assert refused(parts.check_app, manifest([p for p in whole if p != path])) == ("incomplete_app", path)
    # source where the slot needs bytecode is no trust store or version module either
    assert refused(parts.check_app, manifest(["main.py", "update/trusted.py", "lib/tafel/version.mpy"])) == (
        "incomplete_app", "update/trusted.mpy")


class _Image:
    # A firmware image (update/image.py: the frozen appimage module) holding exactly APP's version.mpy.
    FILES = ("lib/tafel/version.mpy",)
    DIGESTS = (hashlib.sha256(body("lib/tafel/version.mpy")[1]).digest(),)
    VERSION = VERSION


class _OtherImage(_Image):
    VERSION = "9.9.9"  # what the image was built as: not the bundle's version


def test_a_version_module_the_image_holds_is_the_images_version():
    st = stager()
    st.image = _OtherImage
    stage_all(st, APP)
    assert refused(st.finish) == ("version_mismatch", ("9.9.9", VERSION))
    assert bootsel.read(st.fs) is None and st.status() == (0, 0, [])  # nothing switched, stage forgotten
    st = stager(st.fs)
    st.image = _Image
    stage_all(st, APP)
    assert st.finish() == VERSION
    disk = Disk(st.fs, "")
    assert disk.size("app/a/main.py") and disk.size("app/a/lib/tafel/version.mpy") is None  # the image's


# ---- reading VERSION from a slot ------------------------------------------------------------


def _mounts():
    # What is mounted, as far as the unix port tells: the folders that answer a stat.
    return [p for p in ("/.tafel-check",) if _exists(p)]


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def test_the_slot_version_is_read_without_touching_the_running_one():
    import tafel.version

    vol, _ = mount(FlashDev())
    disk = Disk(vol, "")
    for folder in ("app", "app/b", "app/b/lib", "app/b/lib/tafel"):
        disk.mkdir(folder)
    _, data = body("lib/tafel/version.mpy")
    disk.write_new("app/b/lib/tafel/version.mpy", data)
    path, running = sys.path[:], sys.modules["tafel.version"]
    for _ in range(2):  # twice: the mount point is free again after each read
        assert complete.slot_version(disk, "app/b/lib/tafel") == VERSION
        assert sys.path == path and "version" not in sys.modules and _mounts() == []
    assert sys.modules["tafel.version"] is running and tafel.version.VERSION != VERSION
    assert complete.slot_version(disk, "app/a/lib/tafel") is None  # no such module
    disk.write_new("app/b/lib/tafel/version.mpy", b"M\x06\x00\x1fnot bytecode")
    assert complete.slot_version(disk, "app/b/lib/tafel") is None  # not importable
    disk.write_new("app/b/lib/tafel/version.mpy", data[:20])
    assert complete.slot_version(disk, "app/b/lib/tafel") is None  # cut short
    assert sys.path == path and "version" not in sys.modules and _mounts() == []


def test_the_slot_version_is_read_through_the_frozen_builds_import():
    # On the frozen build port/overlay.py is builtins.__import__; the read goes through it.
    from port import overlay

    root = "/tmp/tafel-test-complete-%08x" % int.from_bytes(os.urandom(4), "big")
    for folder in (root, root + "/slot"):
        os.mkdir(folder)
    with open(root + "/slot/ovcheck.py", "w") as f:
        f.write("WHO = 'slot'\n")
    vol, _ = mount(FlashDev())
    disk = Disk(vol, "")
    for folder in ("app", "app/a", "app/a/lib", "app/a/lib/tafel"):
        disk.mkdir(folder)
    disk.write_new("app/a/lib/tafel/version.mpy", body("lib/tafel/version.mpy")[1])
    try:
        assert overlay.install(root + "/slot", base=root) == 1
        assert __import__ is overlay._import  # what complete.py's __import__ finds now
        assert complete.slot_version(disk, "app/a/lib/tafel") == VERSION
        assert "version" not in sys.modules
        import ovcheck

        assert ovcheck.WHO == "slot"  # the overlay still lays the slot over as before
    finally:
        overlay.uninstall()
        sys.modules.pop("ovcheck", None)
        os.remove(root + "/slot/ovcheck.py")
        os.rmdir(root + "/slot")
        os.rmdir(root)


# ---- the space check at its edge ------------------------------------------------------------


def _fill_to(vol, free_blocks):
    """A filler file grown until the file system has exactly `free_blocks` free."""
    disk = Disk(vol, "")
    bs = disk.space()[2]
    f = vol.open("/filler", "ab")
    try:
        while disk.space()[0] > free_blocks + 2:
            f.write(bytes(bs))
            f.flush()
        while disk.space()[0] > free_blocks:
            f.write(bytes(64))
            f.flush()
    finally:
        f.close()
    assert disk.space()[0] == free_blocks
    return disk


def _head_staged(st):
    head = head_of(APP)
    st.begin(hashlib.sha256(head).digest()[:8], len(head))
    st.put(0, 0, head)


def test_a_flash_filled_to_the_space_checks_edge_takes_the_whole_application_and_keeps_the_games_room():
    # The check (update/room.py) lets a bundle through only when its slot leaves the games their
    # blocks. Filled to exactly where it still says yes, the whole application must stage and
    # switch without the flash running out, and the games' blocks must still be free after it.
    vol, _ = mount(FlashDev())
    st = stager(vol)
    disk = Disk(vol, "")
    before = disk.space()[0]
    _head_staged(st)
    head_blocks = before - disk.space()[0]
    need = room.blocks_needed(st, st.manifest)
    disk = _fill_to(vol, need + room.RESERVE)
    st = stager(vol)  # takes the transfer up from the flash, checking its head there again
    for i, got in st.status()[2]:
        entry = st.manifest.files[i]
        st.put(i + 1, got, APP[entry.offset + got:entry.offset + entry.stored])
    assert st.finish() == VERSION
    assert disk.space()[0] >= room.RESERVE

    # one block less, and the head is refused before a body is sent
    vol, _ = mount(FlashDev())
    _fill_to(vol, need + room.RESERVE + head_blocks - 1)
    st = stager(vol)
    key, detail = refused(_head_staged, st)
    assert key == "no_space"
