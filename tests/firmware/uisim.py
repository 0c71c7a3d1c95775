# Helpers for UI tests: a whole simulated device on a RAM flash, power cuts, and key scripts.
from sim.device import Device
from sim.flashdev import FlashDev, copy_image

PROFILE = "hardware/boards/esp32-devkitc-ssd1306.json"

# Names typed with multi-tap (a repeated key needs a pause; another key commits).
ANNA = "2 6 6 wait:1200 6 6 2 #"
BEN = "2 2 3 3 6 6 #"
CLEO = "2 2 2 5 5 5 3 3 6 6 6 #"
ADD_NAME = "# #"  # on "+ add player": open the picker, take "new name"


def device(flash=None):
    dev = Device(PROFILE, flash=flash if flash is not None else FlashDev())
    dev.errors = []
    dev.app.log = dev.errors.append  # a screen crash is a test failure, not a notice
    return dev


def power_cut(dev):
    """Pull the plug: the old device never touches the flash again; boot a new one on what is there."""
    dev.flash.power_off()
    return device(FlashDev(image=copy_image(dev.flash.image)))


def new_game(dev, names=(ANNA, BEN, CLEO), variant_presses=0, target=""):
    """From home: set up and start a game; ends in round entry of round 1."""
    dev.play("1")
    dev.play("#" * 0 + " ".join(["#"] * variant_presses))
    dev.play("D " + target + " D")
    for name in names:
        dev.play(ADD_NAME + " " + name)
    # the cursor is on "+ add player" (or on "start" once ten seats are set)
    dev.play("D #")
    if type(dev.app.screen).__name__ == "Confirm":  # "pause the running game?": yes
        dev.play("#")


def text(dev):
    return "\n".join(dev.screen())
