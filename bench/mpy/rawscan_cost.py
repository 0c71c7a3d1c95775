# Runs under MicroPython for bench/rawscan_speed.py (a bench helper: not a test, never deployed).
#
#   micropython bench/mpy/rawscan_cost.py FIRMWARE IMAGE FULL [BLOCKS]
#
# The raw scan (store/rawscan.py) over a full partition of BLOCKS blocks (512: the
# 2 MB of a 4 MB chip): every block holds bytes (IMAGE's used blocks, repeated over
# the blocks it left erased), so no block is skipped as erased. Timed twice: on a RAM
# chip whose readblocks is one C copy (as esp32.Partition's is on the chip), between
# two marker calls (micropython.opt_level) for callgrind; and on the simulator's
# file-backed chip over the file FULL (written here: the blocks as the RAM chip holds
# them; FULL "-": not timed, 0). Prints "scan <games> <used blocks> <ms on the RAM
# chip> <ms on the file chip>", then "segments scan".
import sys

sys.path[:] = [".frozen", sys.argv[1], sys.argv[1] + "/../lib"]
import time  # noqa: E402

import micropython  # noqa: E402

from sim.fileflash import FileFlash  # noqa: E402
from store import rawscan  # noqa: E402

BLOCK = 4096
BLOCKS = int(sys.argv[4]) if len(sys.argv) > 4 else 512


class RamChip:
    def __init__(self, blocks):
        self.blocks = blocks

    def readblocks(self, n, buf, off=0):
        buf[:] = self.blocks[n]

    def ioctl(self, op, arg):
        return BLOCKS if op == 4 else BLOCK if op == 5 else 0


src = FileFlash(sys.argv[2])
erased = b"\xff" * BLOCK
used = []
for n in range(src.ioctl(4, 0)):  # the image's own blocks (2 MB), repeated over BLOCKS below
    buf = bytearray(BLOCK)
    src.readblocks(n, buf)
    if buf != erased:
        used.append(buf)
blocks = [used[n % len(used)] for n in range(BLOCKS)]
chip = RamChip(blocks)
full = sys.argv[3]
if full != "-":
    with open(full, "wb") as f:
        for b in blocks:
            f.write(b)
marker = micropython.opt_level
t = time.ticks_us()
marker()
ids, count = rawscan.scan(chip)
marker()
ram_ms = time.ticks_diff(time.ticks_us(), t) / 1000
file_ms = 0
if full != "-":
    t = time.ticks_us()
    ids2, count2 = rawscan.scan(FileFlash(full))
    file_ms = time.ticks_diff(time.ticks_us(), t) / 1000
    assert ids2 == ids and count2 == count
assert count == BLOCKS
print("scan %d %d %.1f %.1f" % (len(ids), count, ram_ms, file_ms))
print("segments scan")
