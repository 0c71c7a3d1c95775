# MicroPython side of bench/update_speed.py's heap table (run that, not this): the device's
# staging of a bundle in a 64 KB heap, with BALLAST bytes of other live data held beside it.
#
#   micropython -X heapsize=64k -m bench_update_stage_heap FLASH KEYHEX BUNDLE MODE HEAD BALLAST
#
# FLASH: a flash image with a version installed (sim/install.py); LittleFS is mounted on it
# through a file block device (nothing cached in the heap, as on the device); the modules are
# the installed slot's .mpy, bootsel the root's, as boot.py finds them. MODE "verify": the head
# (HEAD bytes) staged and checked; "apply": Stager.feed of the whole bundle, then finish().
# Prints one JSON object: heap in use after the imports, the heap's size, the heap the ballast
# took, "ok" or what failed.
import gc
import sys

FLASH, KEYHEX, BUNDLE, MODE, HEAD, BALLAST = sys.argv[1:7]
import vfs  # noqa: E402


class FileDev:
    def __init__(self, path):
        self.f = open(path, "r+b")
        self.ff = bytearray(b"\xff" * 256)

    def readblocks(self, n, buf, off=0):
        self.f.seek(n * 4096 + off)
        self.f.readinto(buf)

    def writeblocks(self, n, buf, off=None):
        if off is None:
            self.ioctl(6, n)
            off = 0
        self.f.seek(n * 4096 + off)
        self.f.write(buf)

    def ioctl(self, op, arg):
        if op == 4:
            return 512
        if op == 5:
            return 4096
        if op == 6:
            self.f.seek(arg * 4096)
            for _ in range(16):
                self.f.write(self.ff)
        return 0


vol = vfs.VfsLfs2(FileDev(FLASH))
vfs.mount(vol, "/flash")
sys.path[:] = ["/flash"]
import bootsel  # noqa: E402

slot = "/flash/app/" + bootsel.read(vol)["slot"]
for _name in getattr(bootsel, "BOOT_ONLY", ()):  # as after boot.py: the code only a boot needs is let go
    del bootsel.__dict__[_name]
sys.path[:] = [slot, slot + "/lib", "/flash"]
from update.stage import Stager  # noqa: E402

key = bytes(int(KEYHEX[i:i + 2], 16) for i in range(0, 64, 2))
gc.collect()
imported = gc.mem_alloc()
result = "ok"
# BALLAST bytes in 256-byte pieces; what they take in the heap (object headers, block rounding)
# is measured, not assumed: that is the room the phase left free.
ballast = [None] * (int(BALLAST) // 256)  # sized once: a list grown by appends leaves its old copies
try:
    for i in range(len(ballast)):
        ballast[i] = bytearray(256)
except MemoryError:
    result = "no room for the ballast"
gc.collect()
held = gc.mem_alloc() - imported
if result == "ok":
    try:
        st = Stager(vol, [key], running_version="0.8.0", mpy=None)
        with open(BUNDLE, "rb") as f:
            if MODE == "apply":
                st.feed(f)
                st.finish()
            else:
                head = int(HEAD)
                st.begin(b"verifyhd", head)
                have = 0
                while have < head:
                    have = st.put(0, have, f.read(min(512, head - have)))
                if st.manifest is None:
                    result = "not checked"
    except MemoryError:
        result = "MemoryError"
print('{"imported": %d, "total": %d, "held": %d, "result": "%s"}' % (imported, gc.mem_alloc() + gc.mem_free(), held,
                                                                      result))
