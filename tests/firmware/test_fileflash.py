# The simulator's file-backed flash chip: NOR rules on the image file, LittleFS on it, no image in the heap.
import gc
import os

import pytest
import vfs

from sim.fileflash import FileFlash
from sim.flashdev import FlashDev

BS = 4096
_TMP = "/tmp/tafel-test-fileflash-%08x.img" % int.from_bytes(os.urandom(4), "big")


def _fresh(blocks=8):
    try:
        os.remove(_TMP)
    except OSError:
        pass
    return FileFlash(_TMP, blocks=blocks)


def _read(dev, block, off, n):
    buf = bytearray(n)
    dev.readblocks(block, buf, off)
    return bytes(buf)


def test_a_new_image_is_erased_and_has_the_chip_size():
    dev = _fresh()
    assert dev.ioctl(4, 0) == 8 and dev.ioctl(5, 0) == BS
    assert _read(dev, 7, BS - 16, 16) == b"\xff" * 16
    dev.close()
    assert os.stat(_TMP)[6] == 8 * BS


def test_program_only_clears_bits_and_erase_sets_them():
    dev = _fresh(blocks=4)
    dev.writeblocks(1, b"\x0f\xf0", 10)
    dev.writeblocks(1, b"\xf0", 10)  # wants 1s over 0s: NOR keeps the 0s (old AND new)
    assert _read(dev, 1, 10, 2) == b"\x00\xf0"
    data = bytes(range(256)) * 2  # a whole chunk over cells already programmed: merged too
    dev.writeblocks(2, data, 0)
    dev.writeblocks(2, b"\x00" * 512, 0)
    assert _read(dev, 2, 0, 512) == b"\x00" * 512
    assert dev.ioctl(6, 1) == 0
    assert _read(dev, 1, 10, 2) == b"\xff\xff" and _read(dev, 2, 0, 4) == b"\x00" * 4
    assert dev.programs == 4 and dev.erases == 1


def test_the_file_keeps_what_was_programmed_across_a_restart():
    dev = _fresh(blocks=4)
    dev.writeblocks(3, b"kept", 100)
    dev.close()  # a power cut: the launcher kills the process; the file stays
    again = FileFlash(_TMP, blocks=4)
    assert _read(again, 3, 100, 4) == b"kept"


def test_an_image_of_another_size_is_refused():
    _fresh(blocks=4).close()
    with pytest.raises(OSError, match="expected"):
        FileFlash(_TMP, blocks=8)


def test_littlefs_on_it_reads_the_same_as_on_the_ram_chip():
    dev = _fresh(blocks=64)
    vfs.VfsLfs2.mkfs(dev)
    fs = vfs.VfsLfs2(dev)
    with fs.open("/game", "w") as f:
        f.write("round 1\n" * 300)
    dev.close()
    ram = FlashDev(blocks=64, path=_TMP)  # the same file loaded into RAM by the fault-injecting chip
    with vfs.VfsLfs2(ram).open("/game", "r") as f:
        assert f.read() == "round 1\n" * 300


def test_the_heap_holds_no_copy_of_the_flash():
    dev = _fresh(blocks=64)
    vfs.VfsLfs2.mkfs(dev)
    fs = vfs.VfsLfs2(dev)
    gc.collect()
    before = gc.mem_alloc()
    for i in range(8):
        with fs.open("/f%d" % i, "wb") as f:
            f.write(b"x" * 4000)
    del f
    gc.collect()
    assert gc.mem_alloc() - before < 4000  # 32 KB written, far less held
    dev.close()
    os.remove(_TMP)
