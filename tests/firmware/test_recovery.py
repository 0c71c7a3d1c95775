# A flash whose file system does not show its games: the mount's decisions, the raw scan, recovery mode on screen and link.
# slow: whole devices booted on damaged flashes
#
# Images are made by the real store on LittleFS over the emulated flash; the
# recovery device is sim/recovering.py, what the simulator runs (the chip runs
# the same recovery/ code from port/_boot.py), its link driven by the linkhost
# fake serial.
import sys

import pytest

from linkhost import FakeSerial, Host, device
from sim.flashdev import FlashDev, WriteLog, copy_image, same_image
from sim.recovering import RecoveringDevice
from store import mount as mnt
from store import rawscan
from store.errors import StoreError
from store.fsys import Disk
from store.store import Store
from tafel import journal, records, wire
from tafel.game import Game
from tafel.records import varints

PROFILE = "hardware/boards/esp32-devkitc-ssd1306.json"
PLAYERS = ("Anna", "Ben", "Cleo")
_made = []


def _evening():
    """(image, game ids): a 2 MB flash with two finished games and a running one, by the store."""
    if not _made:
        dev = FlashDev()
        vol, _ = mnt.mount(dev, mtime=False)
        store = Store(Disk(vol, "/data"))
        store.boot()
        ids = []
        for target, rounds in ((60, 20), (80, 20), (5000, 5)):
            game_id = store.next_game_id()
            game = Game(PLAYERS, "standard", target, None, 0, game_id)
            store.new_game(game_id, game.create_record())
            ids.append(game_id)
            for r in range(rounds):
                if game.finished:
                    break
                rec = game.round_record({p: (0 if i == r % 3 else 5 + r + i) for i, p in enumerate(PLAYERS)},
                                        PLAYERS[r % 3])
                store.append(game_id, rec)
                game.apply(rec)
                if game.finished:
                    store.game_finished(game_id, game)
        _made.append((dev.image, ids))
    image, ids = _made[0]
    return copy_image(image), ids


def _root_erased():
    # Blocks 0 and 1, LittleFS's superblock pair and root: the file system no longer mounts.
    image, ids = _evening()
    image[0] = image[1] = None
    return FlashDev(image=image), ids


def _crc(image, first=0):
    # CRC32 of the blocks from `first` on, erased blocks as 0xFF
    from binascii import crc32

    crc = 0
    erased = b"\xff" * 4096
    for block in image[first:]:
        crc = crc32(erased if block is None else block, crc)
    return crc & 0xFFFFFFFF


def test_the_scan_looks_for_what_a_create_records_frame_always_holds():
    frame = journal.frame(0, records.encode_create(list(PLAYERS), 0, 500, game_id=300))
    assert frame[2:8] == rawscan.CREATE_MARK
    block = bytearray(b"\xff" * 4096)
    block[100:100 + len(frame)] = frame
    block[2000:2000 + len(frame)] = frame  # a second copy (the twin's, a stale one): one game
    ids = []
    rawscan.creates(block, ids)
    assert ids == [300]
    block[110] ^= 1  # a flipped bit in one copy: its CRC fails, the other still counts
    ids = []
    rawscan.creates(block, ids)
    assert ids == [300]
    tail = bytearray(b"\xff" * 4096)
    tail[4096 - len(frame) + 1:] = frame[:-1]  # a frame that would run past the block is not counted
    ids = []
    rawscan.creates(tail, ids)
    assert ids == []


def test_the_recovery_texts_exist_in_both_languages_and_fit_16_columns():
    from ui.texts_de import TEXTS
    from ui.texts_en import TEXTS as ENGLISH

    DE, EN = dict(TEXTS), dict(ENGLISH)

    keys = [k for k in DE if k.startswith("rec_")] + ["flash_formatted"]
    assert len(keys) > 15 and sorted(k for k in EN if k.startswith("rec_")) == sorted(keys[:-1])
    for table in (DE, EN):
        for k in keys:
            text = table[k] % 100 if "%" in table[k] else table[k]  # three digits where a number goes
            assert len(text) <= 16, (k, text)


def test_an_evening_holds_its_games_in_the_raw_flash():
    dev, ids = _root_erased()
    found, used = rawscan.scan(dev)
    assert sorted(found) == sorted(ids) and used > 2
    assert rawscan.holds_games(FlashDev()) == 0


def test_a_flash_that_does_not_mount_but_holds_games_is_never_formatted():
    dev, ids = _root_erased()
    before = dev.ops
    with pytest.raises(StoreError) as err:
        mnt.mount(dev)
    assert err.value.key == "fs_unreadable" and err.value.detail == (mnt.UNMOUNTABLE, len(ids))
    assert dev.ops == before  # not one program or erase


def test_a_root_fallen_back_to_an_old_revision_is_recovery_too():
    # It mounts, but neither /data nor /twin is there while the raw flash holds games (issue 13:
    # one damaged metadata block made the device boot like new). Nothing is created on it.
    image, ids = _evening()
    dev = FlashDev(image=image)
    vol, _ = mnt.mount(dev, mtime=False)
    for top in mnt.STORE_DIRS:
        _remove_tree(vol, "/" + top)
    before = dev.ops
    with pytest.raises(StoreError) as err:
        mnt.mount(FlashDev(image=dev.image))
    assert err.value.detail == (mnt.UNLISTED, len(ids))
    assert mnt.decide(dev)[1] == mnt.UNLISTED and dev.ops == before


def _remove_tree(vol, path):
    try:
        entries = list(vol.ilistdir(path))
    except OSError:
        return
    for e in entries:
        if e[1] == 0x4000:
            _remove_tree(vol, path + "/" + e[0])
        else:
            vol.remove(path + "/" + e[0])
    vol.rmdir(path)


def test_a_first_format_cut_at_any_write_ends_in_a_working_empty_store():
    # A power cut at every program and erase of mkfs and of the store's first boot, clean and torn
    # (the images a cut leaves, rebuilt from the write log as test_store_power_cut does): the next
    # power-up never sees recovery, formats again (noted) or mounts. Every cut inside mkfs and
    # every 16th of the rest boots the whole device: its home screen, an empty store that works.
    log = []
    probe = FlashDev()
    probe.log = log
    vol, _ = mnt.mount(probe, mtime=False)
    mkfs_ops = len(log)
    Store(Disk(vol, "/data")).boot()
    walk = WriteLog(FlashDev().image, log)
    blank = again = boots = 0
    image = None
    for op in range(len(log)):
        for tear in (False, True):
            image = walk.image_before(op, tear, image)
            cut = copy_image(image) if op < mkfs_ops or op % 16 == tear else None
            dev = FlashDev(image=image)
            vol, what, games = mnt.decide(dev)
            assert what not in mnt.RECOVERY, (op, tear)
            if what != mnt.MOUNTED:
                noted = [("flash_formatted", None)] if what == mnt.NO_GAMES else []
                assert mnt.mount(dev)[1] and mnt.take_notes() == noted
                blank += what == mnt.BLANK
                again += what == mnt.NO_GAMES
            if cut is not None:  # the whole device boots on what the cut left
                box = device(flash=FlashDev(image=cut))
                store = box.app.store
                assert box.screen()[0].startswith("Tafel") and store.history() == [], (op, tear, box.screen())
                assert ("Flash formatiert" in box.screen()) == (what == mnt.NO_GAMES), box.screen()
                game_id = store.next_game_id()
                store.new_game(game_id, Game(PLAYERS, "standard", 500, None, 0, game_id).create_record())
                assert store.running_game() == game_id
                boots += 1
    print("  first format: %d cut points (%d in mkfs), clean and torn: %d found blank, %d formatted again, "
          "%d devices booted" % (len(log), mkfs_ops, blank, again, boots))
    assert len(log) > mkfs_ops > 1 and blank and again


def recovering(dev, **kw):
    from board import load_profile

    why, games = mnt.decide(dev)[1:]
    serial = FakeSerial(**kw)
    rec = RecoveringDevice(load_profile(PROFILE), dev, why, games, serial, "sim-test")
    return rec, Host(rec)


def read_flash(host, first=0, then=b""):
    """(image, FLASH_READ's OK, FLASH_DONE's numbers) over the link: the image as FlashDev keeps one
    (a block a bytearray, None while nothing of it came: erased)."""
    body = host.ok(wire.FLASH_READ, varints(first) if first else b"")
    start, blocks, size = wire.parse_numbers(body, 3)
    image = [None] * blocks
    expect = 0
    while True:
        kind, seq, body = host.frame()
        if seq != expect:
            continue
        expect += 1
        host.send(wire.encode(wire.ACK, expect) + (then if kind == wire.FLASH_DONE else b""))
        if kind == wire.FLASH_DATA:
            block, offset, data = wire.parse_flash_data(body)
            if data:
                if image[block] is None:
                    image[block] = bytearray(b"\xff" * size)
                image[block][offset:offset + len(data)] = data
        elif kind == wire.FLASH_DONE:
            host.step(50)  # the ACK of FLASH_DONE goes in
            return image, (start, blocks, size), wire.parse_flash_done(body)


def test_recovery_says_what_is_wrong_and_how_to_rescue():
    dev, ids = _root_erased()
    rec, host = recovering(dev)
    assert rec.screen()[:8] == ["Flash-Fehler", "Speicher defekt", "3 Spiele da", "Spiele retten:", "am Laptop",
                                "tafel rescue", "", "C = formatieren"]
    hello = host.handshake()
    assert hello["mode"] == wire.RECOVERY and hello["id"] == "sim-test"
    info = wire.parse_recovery_info(host.ok(wire.INFO))
    assert info == {"state": "recovery", "why": "unmountable", "games": len(ids), "blocks": 512, "block_size": 4096,
                    "read_done": False, "firmware": rec.recovery.link.firmware}
    for kind in (wire.LIST, wire.EXPORT, wire.WIPE, wire.CLOCK, wire.UPDATE_BEGIN):
        assert host.err(kind, b"\x01") == wire.RECOVERY


def test_the_raw_flash_comes_whole_over_the_link_and_then_the_format_asks_nothing_more():
    dev, ids = _root_erased()
    rec, host = recovering(dev)
    host.handshake()
    got, (first, blocks, size), (f, b, crc) = read_flash(host)
    assert same_image(got, dev.image) and (first, blocks, size) == (0, 512, 4096) and (f, b) == (0, 512)
    assert crc == _crc(dev.image)
    assert wire.parse_recovery_info(host.ok(wire.INFO))["read_done"] is True
    assert rec.screen()[6] == "Flash gelesen"
    rec.key("C")
    assert rec.screen()[2:4] == ["Alle Spiele", "löschen?"] and "Nicht gerettet!" not in rec.screen()
    assert rec.screen()[7] == "# = Ja  * = Nein"
    rec.key("*")
    assert rec.screen()[0] == "Flash-Fehler" and same_image(got, dev.image)  # * keeps everything


def test_a_bye_right_behind_the_last_ack_still_counts_the_read():
    # The laptop acknowledges FLASH_DONE and says BYE at once: both are read in one step.
    dev, ids = _root_erased()
    rec, host = recovering(dev)
    host.handshake()
    read_flash(host, then=wire.encode(wire.BYE, 99))
    assert rec.recovery.read_done and rec.screen()[6] == "Flash gelesen"


def test_format_before_any_read_warns_then_erases_every_block_and_resets():
    dev, ids = _root_erased()
    rec, host = recovering(dev)
    rec.key("C")
    assert "Nicht gerettet!" in rec.screen()
    rec.key("#")
    assert rec.reset_pending  # machine.reset(): the simulator starts again from boot
    vol, what, games = mnt.decide(dev)
    assert what == mnt.MOUNTED and sorted(e[0] for e in vol.ilistdir("/")) == ["boot.py", "main.py"]  # no NVS here
    assert rawscan.scan(dev)[0] == [] and dev.used_blocks() <= 4, dev.used_blocks()  # no stale game left
    for name in ("boot.py", "main.py"):  # what the image's frozen application starts from
        with vol.open("/" + name, "r") as f:
            assert _code(f.read()) == _code(open("firmware/" + name).read()), name
    box = device(flash=FlashDev(image=dev.image))
    assert box.app.store.history() == [] and box.screen()[0].startswith("Tafel")


def _code(text):
    return [line for line in text.splitlines() if line and not line.startswith("#")]


def test_after_the_format_the_chip_starts_the_frozen_app_with_the_profile_nvs_kept():
    from recovery import boot

    dev, ids = _root_erased()
    with open(PROFILE, "rb") as f:
        board = f.read()
    _NVS.store[("tafel", "board")] = board
    sys.modules["esp32"] = _Esp32()
    try:
        mnt.format_all(dev)
        boot.restore(dev)
    finally:
        del sys.modules["esp32"]
        _NVS.store.clear()
    vol = mnt.decide(dev)[0]
    assert sorted(e[0] for e in vol.ilistdir("/")) == ["board.json", "boot.py", "main.py"]
    with vol.open("/board.json", "rb") as f:
        assert f.read() == board


def test_a_read_cut_short_resumes_where_it_got_and_only_reads_that_join_up_count_as_rescued():
    dev, ids = _root_erased()
    rec, host = recovering(dev)
    host.handshake()
    got, (first, blocks, size), (f, b, crc) = read_flash(host, first=500)
    assert first == f == 500 and crc == _crc(dev.image, 500)
    assert same_image(got[500:], dev.image[500:]) and got[:500] == [None] * 500
    assert not rec.recovery.read_done  # blocks 0-499 never went
    host.ok(wire.FLASH_READ)
    last = 0
    for _ in range(40):  # then the cable goes: the laptop has blocks 0 .. last - 1
        kind, seq, body = host.frame()
        host.send(wire.encode(wire.ACK, seq + 1))
        last = wire.parse_flash_data(body)[0]
    host.ok(wire.CANCEL)
    host.step(100)
    assert not rec.recovery.read_done and rec.screen()[6].startswith("Lese Flash")
    rec.key("C")
    assert "Nicht gerettet!" in rec.screen()
    rec.key("*")
    rest = read_flash(host, first=last)[0]
    assert same_image(rest[last:], dev.image[last:]) and rec.recovery.read_done and rec.screen()[6] == "Flash gelesen"


class _Bdev:
    def __init__(self, dev):
        self.bdev = dev


def test_a_device_that_booted_like_new_serves_the_raw_read_too():
    image, ids = _evening()
    flash = FlashDev(image=image)
    box = device(flash=flash)
    host = Host(box)
    host.handshake()
    assert host.err(wire.FLASH_READ) == "unsupported"  # no flash partition known
    sys.modules["flashbdev"] = _Bdev(flash)  # the ESP32 port's module, as the simulator provides it
    try:
        got = read_flash(host)[0]
        assert same_image(got, flash.image)
        assert host.ok(wire.INFO)  # the session goes on in normal mode
    finally:
        del sys.modules["flashbdev"]


class _NVS:
    # Stands in for esp32.NVS (ESP-IDF's key-value partition): blobs by namespace and key.
    store = {}
    writes = 0

    def __init__(self, namespace):
        self.ns = namespace

    def get_blob(self, key, buf):
        data = _NVS.store.get((self.ns, key))
        if data is None:
            raise OSError(-0x1102)  # ESP_ERR_NVS_NOT_FOUND
        buf[:len(data)] = data
        return len(data)

    def set_blob(self, key, data):
        _NVS.store[(self.ns, key)] = bytes(data)
        _NVS.writes += 1

    def commit(self):
        pass


class _Esp32:
    NVS = _NVS


def test_the_chips_boot_mounts_a_flash_that_holds_the_store_and_keeps_the_profile_for_recovery():
    import os

    import vfs

    from recovery import boot, profile

    image, ids = _evening()
    dev = FlashDev(image=image)
    vol, _ = mnt.mount(dev, mtime=False)
    with open(PROFILE, "rb") as f:
        board = f.read()
    with vol.open("/board.json", "wb") as f:
        f.write(board)
    assert profile.recall() is None  # off the chip: no NVS, recovery would run with the link alone
    sys.modules["esp32"] = _Esp32()
    try:
        for _ in range(2):
            boot.start(FlashDev(image=dev.image), "/rtest")  # what port/_boot.py does, at / on the chip
            try:
                assert "data" in os.listdir("/rtest") and "board.json" in os.listdir("/rtest")
            finally:
                vfs.umount("/rtest")
        assert profile.recall()["name"] == "esp32-devkitc-ssd1306"
        assert _NVS.writes == 1  # written once; the same profile at the next boot writes nothing
    finally:
        del sys.modules["esp32"]
        _NVS.store.clear()


# ---- a boot that cannot go dark: whatever mounting raises ends in recovery or a working device --------


class _FailingFlash(FlashDev):
    """A flash whose reads fail (a chip that no longer answers, a broken SPI line)."""

    def readblocks(self, n, buf, off=0):
        raise OSError(5)  # EIO


def _chip_boot(dev, where="/rtest"):
    """recovery/boot.py start() as the chip's _boot.py runs it, with recovery mode's endless loop
    replaced by a note of why it ran: (what ran it, or None if the flash was mounted)."""
    from recovery import boot

    ran = []
    real = boot.run
    boot.run = lambda bdev, why, games: ran.append((why, games))
    try:
        boot.start(dev, where)
    finally:
        boot.run = real
    return ran[0] if ran else None


def _mounted(where="/rtest"):
    import os

    import vfs

    try:
        return "data" in os.listdir(where)
    finally:
        vfs.umount(where)


def test_a_flash_that_fails_to_read_while_mounting_starts_recovery_saying_the_start_failed():
    from recovery.boot import FAILED

    assert _chip_boot(_FailingFlash()) == (FAILED, None)


def test_a_heap_that_refuses_the_mount_once_is_collected_and_the_flash_mounted():
    image, _ = _evening()
    real = mnt.mount
    calls = []

    def once_no_memory(dev, mtime=True):
        calls.append(1)
        if len(calls) == 1:
            raise MemoryError("memory allocation failed")
        return real(dev, mtime)

    mnt.mount = once_no_memory
    try:
        assert _chip_boot(FlashDev(image=image)) is None
    finally:
        mnt.mount = real
    assert _mounted() and len(calls) == 2


def test_a_heap_that_refuses_the_mount_twice_or_a_bug_in_it_starts_recovery():
    from recovery.boot import FAILED

    image, _ = _evening()
    real = mnt.mount
    for error in (MemoryError("memory allocation failed"), ValueError("a bug"), KeyError("x")):
        def failing(dev, mtime=True, error=error):
            raise error

        mnt.mount = failing
        try:
            assert _chip_boot(FlashDev(image=image)) == (FAILED, None), error
        finally:
            mnt.mount = real


def test_a_board_profile_that_cannot_be_kept_in_nvs_does_not_stop_the_boot():
    from recovery import profile

    image, _ = _evening()
    real = profile.remember

    def nvs_broken(path):
        raise OSError(28)

    profile.remember = nvs_broken
    try:
        assert _chip_boot(FlashDev(image=image)) is None
    finally:
        profile.remember = real
    assert _mounted()


def test_recovery_after_a_failed_start_says_so_and_counts_no_games():
    from board import load_profile
    from recovery.boot import FAILED

    rec = RecoveringDevice(load_profile(PROFILE), _FailingFlash(), FAILED, None, FakeSerial(), "sim-test")
    host = Host(rec)
    assert rec.screen()[:8] == ["Flash-Fehler", "Start gestört", "", "Spiele retten:", "am Laptop",
                                "tafel rescue", "", "C = formatieren"]
    host.handshake()
    info = wire.parse_recovery_info(host.ok(wire.INFO))
    assert info["why"] == FAILED and info["games"] == 0


def test_the_chips_boot_file_leaves_nothing_for_micropython_to_stop_at_even_when_recovery_fails():
    # port/_boot.py: recovery mode failing to start is printed (on the serial) and the REPL answers;
    # no exception escapes the file, so MicroPython goes on as stock's does.
    class _Broken:
        started = []

        @staticmethod
        def start():
            _Broken.started.append(1)
            raise RuntimeError("the display does not answer")

        @staticmethod
        def let_go(had):
            raise AssertionError("not reached: start raised")

    real = sys.modules.get("recovery.boot")
    sys.modules["recovery.boot"] = _Broken
    try:
        with open("firmware/port/_boot.py") as f:
            code = f.read()
        exec(code, {"__name__": "_boot"})  # raises nothing
    finally:
        if real is None:
            del sys.modules["recovery.boot"]
        else:
            sys.modules["recovery.boot"] = real
    assert _Broken.started == [1]


def test_the_virtual_chip_whose_mount_raises_boots_into_recovery_saying_the_start_failed():
    # The simulator's boot (sim/poweron.py flash) follows the chip's: recovery mode, not a crash.
    import os

    from recovery.boot import FAILED
    from sim import poweron

    path = "/tmp/tafel-test-boot-failed.img"
    had = sys.modules.get("flashbdev")
    real = mnt.decide

    def failing(dev, mtime=True):
        raise OSError(5)

    mnt.decide = failing
    try:
        dev, vol, rescue = poweron.flash(path)
    finally:
        mnt.decide = real
        os.remove(path)
        if had is None:
            sys.modules.pop("flashbdev", None)
        else:
            sys.modules["flashbdev"] = had
    assert vol is None and rescue == (FAILED, None)
