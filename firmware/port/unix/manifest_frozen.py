# The 32-bit unix build for the frozen deployment: what manifest_mpy.py freezes, plus the
# application exactly as the ESP32 image freezes it (firmware/port/manifest.py).
include("manifest_mpy.py")
include("../manifest.py")
