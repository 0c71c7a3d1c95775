# What the Tafel ESP32 image freezes: MicroPython's own ESP32 modules, then the application.
include("$(PORT_DIR)/boards/manifest.py")  # _boot.py, asyncio, networking helpers (stock ESP32_GENERIC)
include("../../manifest.py")  # Tafel: lib/tafel, the firmware, overlay.py, appimage.py
