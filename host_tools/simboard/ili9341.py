# Emulated ILI9341 LCD controller and its 2.8" glass (simulator only): the ST7789 model, this chip's commands and glass.
#
# The ILI9341 takes the same MIPI DCS commands for the window, the pointer,
# MADCTL, COLMOD, sleep and inversion as the ST7789, and has the same 240 x 320
# RAM of RGB565, so sim/st7789_chip.py's model runs it; what differs is here:
#   - its own set-up commands (power, VCOM, driver timing, frame rate, gamma:
#     datasheet 8.3-8.4), recorded, with their parameter counts: a driver
#     sending the wrong number of bytes fails in strict mode;
#   - the glass covers the whole RAM (no offsets) and, as on the common 2.8"
#     modules, shows RAM column 0 at the right edge of its portrait (pins at the
#     top) and is wired BGR: a correct driver sets MX (or MY) with the rotation
#     and the BGR bit; without them the picture comes out mirrored, red and
#     blue swapped;
#   - a TN panel: true colours with the inversion off (INVOFF).
from .st7789 import DCS_ARGS, ChipError, ST7789Chip  # noqa: F401  (ChipError: this module's API too)

# Parameter bytes of the commands taken: the shared MIPI DCS ones and the ILI9341's own.
_ARGS = dict(DCS_ARGS)
_ARGS.update({
    0x33: 6,  # VSCRDEF
    0x5E: 1,  # CABC minimum brightness (needs a CABC backlight; recorded)
    0xB0: 1,  # RGB interface signal control
    0xB1: 2, 0xB2: 2, 0xB3: 2,  # frame rate control: normal, idle, partial
    0xB4: 1,  # display inversion control
    0xB5: 4,  # blanking porch control
    0xB6: 4,  # display function control
    0xB7: 1,  # entry mode set
    0xC0: 1, 0xC1: 1,  # power control 1, 2
    0xC5: 2, 0xC7: 1,  # VCOM control 1, 2
    0xCB: 5, 0xCF: 3,  # power control A, B
    0xE0: 15, 0xE1: 15,  # positive, negative gamma correction
    0xE8: 3, 0xEA: 2,  # driver timing control A, B
    0xED: 4,  # power-on sequence control
    0xF2: 1,  # enable three-gamma
    0xF6: 3,  # interface control
    0xF7: 1,  # pump ratio control
})


class ILI9341Chip(ST7789Chip):
    ARGS = _ARGS
    MIRROR_X = True
    PANEL_BGR = True

    def __init__(self, width=320, height=240, rotation=1, invert_colours=False, strict=True, clock=None):
        super().__init__(width, height, rotation, invert_colours, strict, clock)
        # picture()'s buffer made now, beside the RAM, while the simulator's heap is still in one
        # piece: 150 KB in one block may not be found once the firmware has run a while.
        self._pic = bytearray(self.width * self.height * 2)
