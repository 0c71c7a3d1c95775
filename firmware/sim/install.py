# First install into a simulated flash image (never deployed): the boot files at the root, a bundle into slot a, confirmed.
#
#   micropython -X heapsize=8M firmware/sim/install.py --flash PATH --pub HEX BUNDLE   (the image is in the heap)
#
# What `tafel flash` does to a real board with mpremote, done here to the
# simulator's LittleFS image: the bundle is checked against the public key
# given (the trust store of a blank device is whatever its first install
# brings), staged by update/stage.py as an update would be, and the pointer
# written confirmed. boot.py and bootsel.py come from this checkout's
# firmware/ to the root, as source: no bundle carries them (updates never
# change them), so the first install is their only way onto a device. The
# simulated device (sim/run.py) then boots that slot: its modules, its trust
# store. /data is left as it is. Prints the version.
import sys

_HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
_FIRMWARE = _HERE.rsplit("/", 1)[0] if "/" in _HERE else ".."
try:  # the device build has the application frozen in (and its import paths are the chip's 128 bytes)
    import appimage  # noqa: F401
except ImportError:
    sys.path.insert(0, _FIRMWARE + "/../lib")
    sys.path.insert(0, _FIRMWARE)

from binascii import unhexlify  # noqa: E402

import bootsel  # noqa: E402
from sim.flashboot import put_boot_files  # noqa: E402
from sim.flashdev import FlashDev  # noqa: E402
from store.mount import mount  # noqa: E402
from update.stage import Stager  # noqa: E402


def main(argv):
    opts = {"--flash": None, "--pub": None}
    rest = []
    i = 1
    while i < len(argv):
        if argv[i] in opts and i + 1 < len(argv):
            opts[argv[i]] = argv[i + 1]
            i += 2
        else:
            rest.append(argv[i])
            i += 1
    if not opts["--flash"] or not opts["--pub"] or len(rest) != 1:
        raise SystemExit("usage: micropython -X heapsize=8M install.py --flash PATH --pub HEX BUNDLE")
    dev = FlashDev(path=opts["--flash"])
    vol, _ = mount(dev)
    put_boot_files(vol, _FIRMWARE)
    st = Stager(vol, [unhexlify(opts["--pub"])], running_version=None, mpy=None)
    with open(rest[0], "rb") as f:
        st.feed(f)
    version = st.finish()
    pointer = bootsel.read(vol)
    pointer["tries"] = None  # installed by hand: nothing to try
    pointer["prev"] = pointer["prev_version"] = None  # a first install: nothing before it to go back to
    bootsel.write(vol, pointer)
    vol.umount() if hasattr(vol, "umount") else None
    dev.close()
    print(version)


main(sys.argv)
