# The 32-bit unix build for the `.mpy` deployment: the application is not frozen (it is
# imported from .mpy files, copied into the heap as on a board with stock MicroPython).
# Frozen: asyncio (frozen in every ESP32 image) and the simulator's machine (firmware/sim),
# so the simulator's code costs none of the heap measured; its data still does.
include("$(MPY_DIR)/extmod/asyncio")
package("sim", base_path="../..")
