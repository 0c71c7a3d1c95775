# The Tafel image's first Python at power-up, frozen in place of stock ESP32 MicroPython's _boot.py (README.md here).
#
# MicroPython runs the frozen _boot.py, then the file system's boot.py and
# main.py. Stock's mounts the flash and formats it (or loops) when it does not
# mount; this one leaves that to store/mount.py's rules and runs recovery mode
# itself when the flash holds games its file system does not show
# (recovery/boot.py). What the boot imported is let go before boot.py runs.
# Whatever escapes even that (recovery's own start failing) is printed and the
# REPL answers, as stock MicroPython's does.
import sys

_had = list(sys.modules)
try:
    from recovery.boot import let_go, start

    start()
    let_go(_had)
    del let_go, start
except Exception as _err:
    sys.print_exception(_err)
    del _err
del _had, sys
import gc  # noqa: E402

gc.collect()
del gc
