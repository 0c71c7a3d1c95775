# The 32-bit unix build for the frozen deployment: what manifest_mpy.py freezes, plus the
# application exactly as the ESP32 image freezes it (firmware/port/manifest.py).
include("manifest_mpy.py")
include("../manifest.py")
# bootsel.py as the ESP32 board's manifest freezes it (boards/TAFEL_ESP32/manifest.py): a fallback that
# "import bootsel" finds when the flash has none (a development flash: sim/poweron.py).
module("bootsel.py", base_path="../..")
