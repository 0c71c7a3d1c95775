# What the Tafel ESP32 image freezes: MicroPython's own ESP32 modules but its _boot.py, then the application.
#
# Stock's boards/manifest.py, less modules/_boot.py and inisetup.py: the image's
# _boot.py is firmware/port/_boot.py (mount by store/mount.py's rules, or recovery
# mode), and nothing calls stock's first-boot setup, which formats. Two files
# named _boot.py cannot both be frozen (the first one would win), hence the copy.
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
include("../../manifest.py")  # Tafel: lib/tafel, the firmware, overlay.py, appimage.py
