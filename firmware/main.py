# Device entry, run by MicroPython from the slot bootsel.py chose. Kept tiny (it stays source, compiled
# at every boot): the device is put together and run by assemble.py. The simulator runs this file
# too and calls its assemble() (sim/flashboot.py).
from assemble import assemble, run  # noqa: F401

if __name__ == "__main__":
    run()
