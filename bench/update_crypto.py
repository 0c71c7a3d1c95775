"""Cost of verifying signed update bundles on the device: prints tables, not a test.

    .venv/bin/python bench/update_crypto.py        (or: make bench)

(1) Ed25519 verification (lib/tafel/bundle/ed25519.py) on the MicroPython unix
    port: instructions per verify counted with valgrind --tool=callgrind (N
    verifies minus none, in a 64 KB heap as on the device), and milliseconds
    per verify by the clock. SHA-512 (lib/tafel/bundle/sha512.py) throughput.
(2) Bundle size: this checkout's application compiled with mpy-cross, the raw
    total against the bundle without and with compression (zlib, window
    2^manifest.WINDOW), and the whole verify (signature, inflating and hashing
    every file) from the bundle file.
(3) Heap during verify in a `-X heapsize=64k` run with the update modules as
    .mpy (as deployed): what importing them takes, and the largest ballast of
    other live data (256-byte pieces) with which verify_bundle still passes:
    that much stays free at the verify's peak. Budget: at least 20 KB free of
    64 KB. Once verifying only, once also writing every file (as staging does).

The bundles are signed with a throwaway key made in a temporary folder. The
unix port is 64-bit: its objects and GC blocks are about twice the ESP32's, so
the heap figures are an upper bound for the device; its instructions are not
an ESP32's either, the counts are for comparing versions of this code.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)
from benchlib import MPY_VERSION, NothingMeasured, find_tool, kb, micropython_named, run_recorded, table, tool_version  # noqa: E402

HELPER = os.path.join(REPO, "bench", "mpy", "update_verify.py")
HEAP_HELPER = os.path.join(REPO, "bench", "mpy", "update_heap.py")
HEAP = "64k"
HEAP_BYTES = 64 * 1024
FREE_BUDGET = 20 * 1024
CG_RUNS = 5


def run_helper(micropython, deploy, bundle, key_hex, mode, arg, *extra, heap=HEAP):
    # The helper runs compiled (as bench_update_verify.mpy in DEPLOY), so its own code costs little heap.
    cmd = [micropython, "-X", "heapsize=" + heap, "-m", "bench_update_verify", deploy, bundle, key_hex, mode,
           str(arg)] + list(extra)
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=deploy)
    if out.returncode != 0:
        raise RuntimeError("%s failed:\n%s" % (" ".join(cmd), out.stderr or out.stdout))
    return json.loads(out.stdout.strip().splitlines()[-1]) if out.stdout.strip() else None


def instructions(valgrind, micropython, deploy, bundle, key_hex, runs):
    cmd = [valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null", micropython, "-X", "heapsize=" + HEAP,
           "-m", "bench_update_verify", deploy, bundle, key_hex, "ed25519cg", str(runs)]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=900, cwd=deploy)
    for line in out.stderr.splitlines():
        if "refs:" in line:
            return int(line.split()[-1].replace(",", ""))
    raise RuntimeError("no instruction count from callgrind:\n" + out.stderr[-2000:])


def heap_run(micropython, deploy, bundle, key_hex, ballast, write):
    cmd = [micropython, "-X", "heapsize=" + HEAP, "-m", "bench_update_heap", deploy, bundle, key_hex,
           str(ballast)] + (["write"] if write else [])
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=deploy)
    if out.returncode != 0:
        raise RuntimeError("%s failed:\n%s" % (" ".join(cmd), out.stderr or out.stdout))
    return json.loads(out.stdout.strip().splitlines()[-1])


def largest_ballast(micropython, deploy, bundle, key_hex, write):
    # Bisection over 256-byte steps: the most ballast with which verify_bundle passes. The GC
    # is not monotonic (a block can land badly), so the result is checked at two smaller sizes too.
    first = heap_run(micropython, deploy, bundle, key_hex, 0, write)
    if first["result"] != "ok":
        return first, None
    low, high = 0, HEAP_BYTES
    while high - low > 256:
        mid = (low + high) // 2 // 256 * 256
        if heap_run(micropython, deploy, bundle, key_hex, mid, write)["result"] == "ok":
            low = mid
        else:
            high = mid
    while low > 0 and not all(heap_run(micropython, deploy, bundle, key_hex, low - step, write)["result"] == "ok"
                              for step in (256, 512)):
        low -= 256
    return first, low


def main():
    from host_tools.update import bundle_build, keys  # noqa: E402 (the checkout's, not an installed copy)

    micropython = find_tool("micropython")
    mpy_cross = find_tool("mpy-cross")
    valgrind = find_tool("valgrind")
    if not micropython or not mpy_cross:
        print("update_crypto: the unix port (micropython) and mpy-cross are needed (make test installs them)")
        raise NothingMeasured()
    print("micropython: %s" % subprocess.run([micropython, "-c", MPY_VERSION], capture_output=True,
                                             text=True).stdout.strip())
    print("mpy-cross:   %s" % tool_version(mpy_cross, "--version"))
    with tempfile.TemporaryDirectory(prefix="tafel-bench-update-") as tmp:
        key_path, _, public = keys.generate(os.path.join(tmp, "keys"))
        key = keys.load_private(key_path)
        store = os.path.join(tmp, "trusted.py")
        shutil.copy(os.path.join(REPO, "firmware", "update", "trusted.py"), store)
        keys.add_to_trust_store(store, public, "bench")
        files, mpy = bundle_build.compile_tree(mpy_cross, REPO, None, store)
        version = bundle_build.source_version(REPO)
        packed = bundle_build.pack(files, version, key, mpy)
        unpacked = bundle_build.pack(files, version, key, mpy, compress=False)
        bundle = os.path.join(tmp, "app.bundle")
        with open(bundle, "wb") as f:
            f.write(packed)
        key_hex = public.hex()

        # The device's bundle reader as .mpy (lib/tafel/bundle, with the core's package and compat), alone.
        deploy = os.path.join(tmp, "deploy")
        os.makedirs(os.path.join(deploy, "tafel", "bundle"))
        lib = os.path.join(REPO, "lib", "tafel")
        sources = [("tafel/" + name, os.path.join(lib, name)) for name in ("__init__.py", "compat.py")]
        sources += [("tafel/bundle/" + name, os.path.join(lib, "bundle", name))
                    for name in sorted(os.listdir(os.path.join(lib, "bundle"))) if name.endswith(".py")]
        for name, source in sources:
            subprocess.run([mpy_cross, "-s", name, "-o", os.path.join(deploy, name[:-3] + ".mpy"), source], check=True)
        subprocess.run([mpy_cross, "-o", os.path.join(deploy, "bench_update_verify.mpy"), HELPER], check=True)
        subprocess.run([mpy_cross, "-o", os.path.join(deploy, "bench_update_heap.mpy"), HEAP_HELPER], check=True)

        # (1) crypto
        rows = []
        timing = min(run_helper(micropython, deploy, bundle, key_hex, "ed25519", 20)["ms"] for _ in range(3))
        if valgrind:
            count = (instructions(valgrind, micropython, deploy, bundle, key_hex, CG_RUNS)
                     - instructions(valgrind, micropython, deploy, bundle, key_hex, 0)) // CG_RUNS
            rows.append(["Ed25519 verify", "%.1f M instructions" % (count / 1e6), "%.1f ms" % timing])
        else:
            rows.append(["Ed25519 verify", "(valgrind missing)", "%.1f ms" % timing])
        sha = max(run_helper(micropython, deploy, bundle, key_hex, "sha512", 256)["kb_s"] for _ in range(3))
        rows.append(["SHA-512 (Python)", "%.0f KB/s" % sha, "%.2f ms / 128-byte block" % (128 / 1024.0 / sha * 1000)])
        whole = min(run_helper(micropython, deploy, bundle, key_hex, "bundle", 5)["ms"] for _ in range(3))
        manifest = bundle_build.read_manifest_unchecked(packed)
        rows.append(["verify_bundle, whole", "%d files, %s" % (len(manifest.files), kb(len(packed))), "%.1f ms" % whole])
        print("\n(1) Verification cost on the unix port, heap %s (clock: best of 3 runs)" % HEAP)
        print(table(["what", "cost", "time"], rows, "lrr"))

        # (2) sizes
        raw_total = sum(len(data) for _, data in files)
        mpy_total = sum(len(data) for path, data in files if path.endswith(".mpy"))
        rows = [
            ["files as written on the device (%d, .mpy %s)" % (len(files), kb(mpy_total)), raw_total, "100%"],
            ["bundle without compression", len(unpacked), "%.0f%%" % (100.0 * len(unpacked) / raw_total)],
            ["bundle, zlib window 2^%d" % bundle_build.device_update().manifest.WINDOW, len(packed),
             "%.0f%%" % (100.0 * len(packed) / raw_total)],
            ["  of which header, manifest, signature", manifest.body_start,
             "%.1f%%" % (100.0 * manifest.body_start / raw_total)],
        ]
        print("\n(2) Bundle size (this checkout, version %s)" % version)
        print(table(["what", "bytes", "of raw"], rows, "lrr"))

        # (3) heap
        rows = []
        for write in (False, True):
            first, ballast = largest_ballast(micropython, deploy, bundle, key_hex, write)
            label = "verify and write every file" if write else "verify only"
            if ballast is None:
                rows.append([label, kb(first["imported"] - first["start"]), "fails without ballast", "-"])
                continue
            verdict = "ok" if ballast >= FREE_BUDGET else "OVER BUDGET"
            rows.append([label, kb(first["imported"] - first["start"]), ">= %s" % kb(ballast), verdict])
        print("\n(3) Heap in a %s heap (unix port, 64-bit; budget: >= %s free at the peak)" % (HEAP, kb(FREE_BUDGET)))
        print(table(["verify_bundle", "update modules imported", "free at peak", "budget"], rows, "lrrl"))
    return 0


def timed_main():
    started = time.time()
    code = main()
    print("\n(%.0f s)" % (time.time() - started))
    return code


if __name__ == "__main__":
    sys.exit(run_recorded(timed_main, "update_crypto", measured_on=lambda: micropython_named(find_tool("micropython"))))
