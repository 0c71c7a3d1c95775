# MicroPython side of bench/update_crypto.py (run that, not this).
#
#   micropython [-X heapsize=64k] bench/mpy/update_verify.py DEPLOY BUNDLE KEYHEX MODE [ARG]
#
# (the bench runs it compiled, as DEPLOY/bench_update_verify.mpy with -m, so that its own
# code takes little of the heap measured). DEPLOY holds tafel/bundle/*.mpy as on the device.
# Prints one JSON object. Modes:
#   ed25519 N     N verifications of RFC 8032 TEST SHA(abc): ms each
#   ed25519cg N   the same, nothing printed (for callgrind: N minus 0 runs)
#   sha512 KB     SHA-512 over KB kilobytes: KB/s
#   bundle N      verify_bundle of BUNDLE from its file, N times: ms each
# (The heap table has its own, smaller helper: bench/mpy/update_heap.py.)
import gc
import json
import sys
import time

DEPLOY, BUNDLE, KEYHEX, MODE = sys.argv[1:5]
ARG = int(sys.argv[5]) if len(sys.argv) > 5 else 0
sys.path[:] = [DEPLOY]
gc.collect()
at_start = gc.mem_alloc()

from binascii import unhexlify  # noqa: E402

KEY = unhexlify(KEYHEX)


def ms_since(t0):
    return time.ticks_diff(time.ticks_us(), t0) / 1000.0


if MODE in ("ed25519", "ed25519cg"):
    from tafel.bundle import ed25519

    # RFC 8032 TEST SHA(abc): R || A || its 64-byte message is two SHA-512 blocks, as with the
    # updater's 52-byte signed message.
    public = unhexlify("ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf")
    message = unhexlify("ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
                        "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
    signature = unhexlify("dc2a4459e7369633a52b1bf277839a00201009a3efbf3ecb69bea2186c26b589"
                          "09351fc9ac90b3ecfdfbc7c66431e0303dca179c138ac17ad9bef1177331a704")
    t0 = time.ticks_us()
    for _ in range(ARG):
        assert ed25519.verify(public, signature, message)
    if MODE == "ed25519":
        print(json.dumps({"ms": ms_since(t0) / max(ARG, 1)}))
elif MODE == "sha512":
    from tafel.bundle.sha512 import sha512

    block = bytes(range(256)) * 4
    hasher = sha512()
    t0 = time.ticks_us()
    for _ in range(ARG):
        hasher.update(block)
    hasher.digest()
    print(json.dumps({"kb_s": ARG / (ms_since(t0) / 1000.0)}))
elif MODE == "bundle":
    from tafel.bundle import reader as bundle

    spent = 0.0
    for _ in range(ARG):
        m = None  # one manifest in the heap at a time
        gc.collect()
        t0 = time.ticks_us()
        with open(BUNDLE, "rb") as f:
            m = bundle.verify_bundle(f, [KEY], None, 0)
        spent += ms_since(t0)
    print(json.dumps({"ms": spent / max(ARG, 1), "files": len(m.files)}))
