# Runs under the device build for bench/device_speed.py (a bench helper: not a test, never deployed).
#
#   micropython bench/mpy/export_cost.py FIRMWARE FLASH
#
# What the device does per exported byte: the export's frames (link/export.py: each game's
# journal files read from LittleFS a chunk at a time) encoded as the link sends them
# (tafel.wire.encode: base64, CRC, sequence number), for every game stored on FLASH (a
# simulator image), between two marker calls (micropython.opt_level) for callgrind. The
# UART's own writing is C code on the device and is left out (the lines go nowhere); so is
# the simulated flash chip's Python (a second segment repeats its reads alone).
# Prints "export <journal bytes> <wire bytes> <games> <flash reads>", then "segments export flash".
import sys

sys.path[:] = [".frozen", sys.argv[1]]
import micropython  # noqa: E402

from link import export  # noqa: E402
from sim.fileflash import FileFlash  # noqa: E402
from store.fsys import Disk  # noqa: E402
from store.mount import mount  # noqa: E402
from store.store import Store  # noqa: E402
from tafel import wire  # noqa: E402
from tafel.records import Reader  # noqa: E402

CHUNK = 384  # link/transport.py UART_CHUNK: file bytes per DATA frame on a USB-UART bridge

dev = FileFlash(sys.argv[2])
vol, _ = mount(dev)
store = Store(Disk(vol, "/data"))
store.boot()
ids, total, cursor = export.plan(store, Reader(bytes([wire.ALL])))
marker = micropython.opt_level
sent = 0
seq = 0
reads = dev.reads
marker()
for kind, body in export.frames(store, ids, cursor, CHUNK):
    sent += len(wire.encode(kind, seq, body))
    seq += 1
marker()
reads, size = dev.reads - reads, max(1, dev.read_bytes // max(1, dev.reads))
# The simulator's share: its flash chip is Python (sim/fileflash.py), the ESP32's is C. The same
# number of reads of the average size again, alone, is what to take out.
buf = bytearray(size)
marker()
for i in range(reads):
    dev.readblocks(i % 64, buf, 0)
marker()
print("export", total, sent, len(ids), reads)
print("segments export flash")
