# What the Tafel ESP32 image freezes: MicroPython's own ESP32 modules but its _boot.py, then the application.
#
# Stock's boards/manifest.py, less modules/_boot.py and inisetup.py: the image's
# _boot.py is firmware/port/_boot.py (mount by store/mount.py's rules, or recovery
# mode), and nothing calls stock's first-boot setup, which formats. Two files
# named _boot.py cannot both be frozen (the first one would win), hence the copy.
# boot.py and main.py are never frozen: MicroPython would run those before the flash's.
freeze("$(PORT_DIR)/modules", ("apa106.py", "espnow.py", "flashbdev.py", "machine.py"))
include("$(MPY_DIR)/extmod/asyncio")
require("bundle-networking")
require("aioespnow")
require("dht")
require("ds18x20")
require("neopixel")
require("onewire")
require("umqtt.robust")
require("umqtt.simple")
require("upysh")
module("_boot.py", base_path="../..")  # firmware/port/_boot.py
# bootsel.py as a fallback: "import bootsel" finds the flash's own first (sys.path "", then ".frozen"),
# this copy only on a flash that has none, as recovery mode's format leaves it (recovery/boot.py restore)
module("bootsel.py", base_path="../../..")
include("../../manifest.py")  # Tafel: lib/tafel, the firmware, overlay.py, appimage.py
