# The device side of tests/host/test_bundle.py and bench/update_crypto.py: run on the MicroPython unix port.
#
#   micropython tests/host/mpy_verify.py FIRMWARE CASES.json
#
# The reader is the core's (FIRMWARE/../lib/tafel/bundle/reader.py), as the device imports it.
# CASES.json: {"bundle": path, "keys": [hex, ...], "cases": [case, ...]}; a case
# is a dict with optional "flip": [offset, xor] (change one byte), "cut": n
# (keep only the first n bytes), "append": hex (bytes after the end),
# "running": version (default "0.0.1"), "boot": n (default 0), "max": bytes
# (max_bytes), "mpy": n (default: this interpreter's), "file": true (read
# the bundle from the file instead of memory; no other changes then),
# "install": folder (write the files there as they are verified, as a stager would), "whole": true
# (then the rule staging adds at the head: a whole application, bundle.check_app).
# Prints one JSON line per case: [index, "ok", version] or [index, key, detail].
import json
import os
import sys

sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[1] + "/../lib")
import io
from binascii import unhexlify

from tafel.bundle import reader as bundle
from tafel.bundle.errors import UpdateError

with open(sys.argv[2]) as f:
    spec = json.load(f)
keys = [unhexlify(k) for k in spec["keys"]]
with open(spec["bundle"], "rb") as f:
    original = f.read()


def makedirs(path):
    # The folders above a file (MicroPython's os has no makedirs).
    parts = path.split("/")[:-1]
    for i in range(1, len(parts) + 1):
        folder = "/".join(parts[:i])
        if folder:
            try:
                os.mkdir(folder)
            except OSError:
                pass  # there already


def sink_into(folder):
    def sink(entry):
        target = folder + "/" + entry.path
        makedirs(target)
        return open(target, "wb")

    return sink


for index, case in enumerate(spec["cases"]):
    data = original
    if "flip" in case:
        offset, xor = case["flip"]
        changed = bytearray(original)
        changed[offset] ^= xor
        data = bytes(changed)
    if "cut" in case:
        data = data[:case["cut"]]
    if "append" in case:
        data = data + unhexlify(case["append"])
    mpy = case.get("mpy", bundle.RUNNING_MPY)
    stream = open(spec["bundle"], "rb") if case.get("file") else io.BytesIO(data)
    try:
        sink = sink_into(case["install"]) if "install" in case else None
        m = bundle.verify_bundle(stream, keys, case.get("running", "0.0.1"), case.get("boot", 0), mpy,
                                 case.get("max"), sink)
        if case.get("whole"):
            bundle.check_app(m)
        print(json.dumps([index, "ok", m.version]))
    except UpdateError as err:
        detail = err.detail
        if isinstance(detail, tuple):
            detail = list(detail)
        print(json.dumps([index, err.key, detail]))
    stream.close()
