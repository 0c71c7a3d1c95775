# Runs under the device build for bench/device_speed.py (a bench helper: not a test, never deployed).
#
#   micropython bench/mpy/export_cost.py FIRMWARE FLASH
#
# What the device does per exported byte: the export's frames (link/export.py: each game's
# journal files read from LittleFS a chunk at a time) encoded as the link sends them
# (tafel.wire.encode: base64, CRC, sequence number), for every game stored on FLASH (a
# simulator image), between two marker calls (micropython.opt_level) for callgrind. The
# UART's own writing is C code on the device and is left out (the lines go nowhere). The
# flash chip is the device build's, in C (simchip.Flash, as the ESP32's partition is C);
# elsewhere the Python one (sim/fileflash.py), whose reads are then in the count.
# Prints "export <journal bytes> <wire bytes> <games> <flash reads> <flash chip>", then
# "segments export".
import sys

sys.path[:] = [".frozen", sys.argv[1]]
import micropython  # noqa: E402

try:
    from simchip import Flash as FileFlash  # noqa: E402  (the device build: the chip side in C)

    CHIP = "simchip.Flash"
except ImportError:
    from sim.fileflash import FileFlash  # noqa: E402

    CHIP = "sim.fileflash"
from link import export  # noqa: E402
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
print("export", total, sent, len(ids), dev.reads - reads, CHIP)
print("segments export")
