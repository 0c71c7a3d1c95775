# MicroPython side of bench/update_crypto.py's heap table (run that, not this): kept minimal,
# as its own code sits in the heap it measures.
#
#   micropython -X heapsize=64k -m bench_update_heap DEPLOY BUNDLE KEYHEX BALLAST [write]
#
# Imports tafel.bundle.reader from DEPLOY (.mpy, as on the device), holds BALLAST bytes of other
# live data in 256-byte pieces, then verify_bundle from the bundle file (and with "write",
# writes every file as staging does). Prints one JSON object: heap in use at the start and
# after the import, and "ok" or what failed.
import gc
import sys

DEPLOY, BUNDLE, KEYHEX, BALLAST = sys.argv[1:5]
WRITE = sys.argv[5:] == ["write"]
sys.path[:] = [DEPLOY]
gc.collect()
start = gc.mem_alloc()
from tafel.bundle import reader as bundle  # noqa: E402

gc.collect()
imported = gc.mem_alloc()
key = bytes(int(KEYHEX[i:i + 2], 16) for i in range(0, 64, 2))
result = "ok"
try:
    ballast = [bytearray(256) for _ in range(int(BALLAST) // 256)]
except MemoryError:
    result = "no room for the ballast"
if result == "ok":
    def sink(entry):
        return open("/tmp/tafel-bench-update-" + entry.path.replace("/", "_"), "wb")

    try:
        with open(BUNDLE, "rb") as f:
            bundle.verify_bundle(f, [key], None, 0, None, None, sink if WRITE else None)
    except MemoryError:
        result = "MemoryError"
print('{"start": %d, "imported": %d, "result": "%s"}' % (start, imported, result))
