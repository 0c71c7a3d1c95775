# The flash emulator: block protocol, NOR rules, counters, power cuts, write log.
import os

import pytest
import vfs

from sim.flashdev import FlashDev, PowerCut, WriteLog, copy_image, same_image

BS = 4096


def test_starts_erased_and_reports_geometry():
    dev = FlashDev(blocks=8)
    assert dev.ioctl(4, 0) == 8 and dev.ioctl(5, 0) == BS
    assert _read(dev, 3, 100, 16) == b"\xff" * 16
    assert dev.reads == 1 and dev.read_bytes == 16
    assert dev.used_blocks() == 0  # erased blocks take no RAM


def test_a_full_size_chip_fits_the_default_heap():
    dev = FlashDev()  # 2 MB, like an ESP32 4 MB board's file-system partition
    assert dev.blocks * dev.block_size == 2 * 1024 * 1024
    vfs.VfsLfs2.mkfs(dev)
    assert vfs.VfsLfs2(dev).statvfs("/")[2] == 512
    assert dev.used_blocks() <= 2


def test_program_only_clears_bits_and_erase_sets_them():
    dev = FlashDev(blocks=4)
    dev.writeblocks(1, b"\x0f\xf0", 10)
    dev.writeblocks(1, b"\x0f\x00", 10)  # only clears more bits: fine
    assert dev.overwrites == 0
    dev.writeblocks(1, b"\xf0", 10)  # wants 1s where 0s are: NOR cannot
    assert _read(dev, 1, 10, 2) == b"\x00\x00" and dev.overwrites == 1
    assert dev.ioctl(6, 1) == 0
    assert _read(dev, 1, 10, 2) == b"\xff\xff"
    assert dev.programs == 3 and dev.programmed == 5 and dev.erases == 1


def test_strict_mode_raises_on_overwrite():
    dev = FlashDev(blocks=2, strict=True)
    dev.writeblocks(0, b"\x00", 0)
    with pytest.raises(OSError):
        dev.writeblocks(0, b"\x01", 0)


def test_simple_protocol_erases_whole_blocks_first():
    dev = FlashDev(blocks=4)
    dev.writeblocks(2, b"\x00" * 10, 0)
    dev.writeblocks(2, b"\xaa" * (2 * BS))  # no offset: erase, then program
    assert _read(dev, 2, 0, 2 * BS) == b"\xaa" * (2 * BS)
    assert dev.overwrites == 0 and dev.erases == 2


def test_out_of_range_access_is_an_error():
    dev = FlashDev(blocks=2)
    with pytest.raises(OSError):
        dev.readblocks(2, bytearray(1))
    with pytest.raises(OSError):
        dev.ioctl(6, 5)


def _read(dev, block, off, n):
    buf = bytearray(n)
    dev.readblocks(block, buf, off)
    return bytes(buf)


def test_power_cut_at_nth_op_then_image_frozen():
    dev = FlashDev(blocks=4)
    dev.cut_at = 2
    dev.writeblocks(0, b"\x00", 0)
    dev.ioctl(6, 1)
    with pytest.raises(PowerCut):
        dev.writeblocks(0, b"\x11\x22", 4)
    assert bytes(dev.image[0][4:6]) == b"\xff\xff"  # a clean cut: nothing of it landed
    frozen = copy_image(dev.image)
    dev.writeblocks(0, b"\x00", 9)  # a finaliser writing on: lands nowhere real
    dev.ioctl(6, 1)
    assert _read(dev, 0, 9, 1) == b"\x00"  # consistent for whoever still writes ...
    assert same_image(dev.image, frozen)  # ... but the image a reboot finds is frozen
    assert dev.ops == 3 and dev.after_cut == 2


def test_power_off_freezes_the_image_without_an_exception():
    dev = FlashDev(blocks=4)
    dev.writeblocks(0, b"\x00", 0)
    dev.power_off()
    dev.writeblocks(0, b"\x00", 1)
    assert dev.dead and bytes(dev.image[0][:2]) == b"\x00\xff" and dev.after_cut == 1


def test_torn_program_and_torn_erase_leave_half():
    dev = FlashDev(blocks=4)
    dev.cut_at, dev.tear = 0, True
    with pytest.raises(PowerCut):
        dev.writeblocks(0, b"\x00" * 8, 0)
    assert bytes(dev.image[0][0:8]) == b"\x00" * 4 + b"\xff" * 4
    dev = FlashDev(blocks=4)
    dev.writeblocks(1, b"\x00" * BS, 0)
    dev.cut_at, dev.tear = 1, True
    with pytest.raises(PowerCut):
        dev.ioctl(6, 1)
    half = BS // 2
    assert bytes(dev.image[1][:half]) == b"\xff" * half
    assert bytes(dev.image[1][half:]) == b"\x00" * half


def test_file_backed_image_survives_a_restart():
    path = "/tmp/tafel-test-flashdev.img"
    try:
        os.remove(path)
    except OSError:
        pass
    try:
        dev = FlashDev(blocks=16, path=path)
        vfs.VfsLfs2.mkfs(dev)
        fs = vfs.VfsLfs2(dev)
        f = fs.open("/kept", "wb")
        f.write(b"round 1")
        f.close()
        dev.close()
        again = FlashDev(blocks=16, path=path)
        assert vfs.VfsLfs2(again).open("/kept", "rb").read() == b"round 1"
        again.close()
        with pytest.raises(OSError):
            FlashDev(blocks=32, path=path)  # a different size is refused
    finally:
        os.remove(path)


def _workload(dev):
    # Some LittleFS traffic: files written, appended, renamed, removed.
    vfs.VfsLfs2.mkfs(dev)
    fs = vfs.VfsLfs2(dev, mtime=False)
    for i in range(12):
        f = fs.open("/f%d" % (i % 3), "ab")
        try:
            f.write(b"x" * (40 + i * 37))
        finally:
            _close_quietly(f)
        if i % 4 == 3:
            fs.rename("/f%d" % (i % 3), "/g%d" % i)


def _close_quietly(f):
    # Closing on a dead chip fails; left open, the file's finaliser would
    # try again during garbage collection and print the error.
    try:
        f.close()
    except OSError:
        pass


def test_write_log_rebuilds_what_a_real_cut_leaves():
    # One logged run, rebuilt at some op indexes, equals a re-run that really
    # loses power there (clean and torn): the log-based sweep is faithful.
    dev = FlashDev(blocks=32)
    base = copy_image(dev.image)
    dev.log = []
    _workload(dev)
    log = dev.log
    assert len(log) > 30
    wl = WriteLog(base, log)
    torn = WriteLog(base, log)
    for op in (0, 1, 5, len(log) // 3, len(log) // 2, len(log) - 1):
        for tear, walker in ((False, wl), (True, torn)):
            real = FlashDev(blocks=32)
            real.cut_at, real.tear = op, tear
            with pytest.raises(PowerCut):
                _workload(real)
            assert same_image(walker.image_before(op, tear), real.image), (op, tear)
    assert same_image(wl.image_before(len(log)), dev.image)
