# Update time over the simulated USB serial at 115200 baud (tafel update against tafel sim's
# pseudo-terminal, paced to the line rate both ways), and the heap the device's staging needs.
#
#   .venv/bin/python bench/update_speed.py
#
# full app:   the device runs a build of the same sources compiled with mpy-cross -O1 (every
#             .mpy differs), so every file of the bundle is sent
# one file:   the device runs version N; N+1 differs in lib/tafel/version.mpy only
# Budgets (DESIGN.md section 8): full app <= 10 s, one file <= 2 s.
# Heap: the staging of the one-file bundle in a 64 KB MicroPython heap (sim/install.py's path,
# Stager.feed and finish), peak from micropython.mem_info's max after a gc.
import os
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "host"))

from simlink import SimPort  # noqa: E402
from tafel_host import bundle_build, keys, update_client  # noqa: E402
from tafel_host.link_client import Link  # noqa: E402
from tafel_host.sim import find_micropython  # noqa: E402



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
    with SimPort(empty, flash, tmp) as sim:
        link = Link.open(sim.port)
        in0, out0 = link.wire_in, link.wire_out
        result = update_client.send(link, bundle.read_bytes())
        wire = link.wire_in - in0 + link.wire_out - out0
        back = update_client.back_again(link, result.version)
        link.close()
    assert back == result.version
    return result, wire


def heap(tmp, flash, public, bundle):
    # Peak heap of staging, checking and switching in a 64 KB heap. The flash emulator keeps its
    # image in the heap, so here the same image file is read and written block by block (a file
    # block device, nothing cached) and LittleFS mounted on it as on the device; the modules are
    # the installed slot's .mpy files.
    script = tmp / "heap.py"
    script.write_text(
        "import sys, gc\n"
        "sys.path.insert(0, %r); sys.path.insert(0, %r)\n"
        "from binascii import unhexlify\n"
        "import vfs, micropython\n"
        "class FileDev:\n"
        "    def __init__(self, path):\n"
        "        self.f = open(path, 'r+b')\n"
        "        self.ff = bytearray(b'\\xff' * 256)\n"
        "    def readblocks(self, n, buf, off=0):\n"
        "        self.f.seek(n * 4096 + off); self.f.readinto(buf)\n"
        "    def writeblocks(self, n, buf, off=None):\n"
        "        if off is None:\n"
        "            self.ioctl(6, n); off = 0\n"
        "        self.f.seek(n * 4096 + off); self.f.write(buf)\n"
        "    def ioctl(self, op, arg):\n"
        "        if op == 4: return 512\n"
        "        if op == 5: return 4096\n"
        "        if op == 6:\n"
        "            self.f.seek(arg * 4096)\n"
        "            for i in range(16): self.f.write(self.ff)\n"
        "        return 0\n"
        "vol = vfs.VfsLfs2(FileDev(%r))\n"
        "vfs.mount(vol, '/flash')\n"
        "import json\n"
        "slot = '/flash/app/' + json.loads(open('/flash/app/current').read())['slot']\n"
        "sys.path[:2] = [slot, slot + '/lib']  # the installed version's .mpy, as on the device\n"
        "from update.stage import Stager\n"
        "gc.collect()\n"
        "before = gc.mem_alloc()\n"
        "st = Stager(vol, [unhexlify(%r)], running_version='0.8.0', mpy=None)\n"
        "st.feed(open(%r, 'rb'))\n"
        "st.finish()\n"
        "print(before, gc.mem_free() + gc.mem_alloc())\n"
        "micropython.mem_info()\n"
        % (str(ROOT / "lib"), str(ROOT / "firmware"), str(flash), public.hex(), str(bundle)))
    done = subprocess.run([str(find_micropython()), "-X", "heapsize=64k", str(script)], capture_output=True,
                          text=True)
    if done.returncode != 0:
        return None, (done.stderr.strip() or done.stdout.strip()).splitlines()[-4:]
    lines = done.stdout.split("\n")
    before, total = map(int, lines[0].split())
    peak = int(lines[1].split("peak=")[1].split(",")[0])
    return (before, peak), total


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
        for label, installed, budget in (("full app", n_o1, 10.0), ("one file", n, 2.0)):
            flash = tmp / ("flash-%d.img" % len(rows))
            install(flash, public, installed)
            result, wire = timed_update(tmp, flash, n1)
            rows.append((label, result, wire, budget))
        flash = tmp / "flash-heap.img"
        install(flash, public, n)
        low, total = heap(tmp, flash, public, n1)
        print("update over the simulated serial at 115200 baud (bundle %s: %d files, %s bytes, %s bytes of .mpy)"
              % (m.version, len(m.files), "{:,}".format(n1.stat().st_size), "{:,}".format(m.files_size)))
        print("%-10s %10s %8s %12s %9s %7s %8s" % ("update", "sent", "files", "wire bytes", "seconds", "budget", ""))
        for label, result, wire, budget in rows:
            print("%-10s %10s %8s %12s %9.1f %7.0f %8s" % (
                label, "{:,}".format(result.sent), "%d/%d" % (result.files - result.skipped, result.files),
                "{:,}".format(wire), result.seconds, budget, "ok" if result.seconds <= budget else "OVER"))
        if low is None:
            print("staging in a 64 KB heap: failed (%s)" % total)
        else:
            print("staging, checking and switching (one file) in a %d-byte heap: peak %s bytes allocated "
                  "(%s of them the modules imported before it began), "
                  "%s free at the peak" % (total, "{:,}".format(low[1]), "{:,}".format(low[0]),
                                            "{:,}".format(total - low[1])))


if __name__ == "__main__":
    main()
