# The glass of an emulated RGB565 controller (simboard/st7789.py, ili9341.py): its RAM as the viewer sees it.
#
# A mixin of the chip: it reads the chip's `ram` (the panel's portrait, row by
# row, RGB565 big-endian), `rotation`, `panel_w`/`panel_h`, `width`/`height`
# (the picture), `lit`, `madctl`, `inv_on`, `panel_inverts`, `PANEL_BGR` and
# `backlight`, and keeps the rendered picture in `_pic`/`_pic_ok` and `_glass`
# (the chip drops them whenever a write may change what shows).


class Glass565:
    def fingerprint(self):
        """A CRC-32 of what decides the glass (the RAM and the state that maps it): the launcher
        asks after every key whether the picture changed, and a render of a 320 x 240 glass in
        Python for each answer would cost more than the firmware's whole step."""
        import binascii

        if not self.lit:
            return 0
        state = bytes((self.madctl, self.inv_on, int(self.backlight * 255)))
        return binascii.crc32(state, binascii.crc32(self.ram))

    def picture(self):
        """What the viewer sees, rendered into one buffer kept for it: the same bytearray every
        time, changed in place. The simulator uses it (it runs in the device's heap, where a new
        65 KB block at every change may not be had); keep nothing of it, copy instead."""
        if self._pic is None:
            self._pic = bytearray(self.width * self.height * 2)
            self._pic_ok = False
        if not self._pic_ok:
            self._render(self._pic)
            self._pic_ok = True
        return self._pic

    def glass(self):
        """What the viewer sees: width x height RGB565 pixels, big-endian, row by row.

        A new bytearray whenever the picture may have changed, else the same
        one again: keep it, compare it, do not change it.
        """
        if self._glass is None:
            self._glass = bytearray(self.picture())
        return self._glass

    def pixel(self, x, y):
        g = self.glass()
        i = (y * self.width + x) * 2
        return g[i] << 8 | g[i + 1]

    def _render(self, out):
        w, h = self.width, self.height
        if not self.lit:
            dark = bytes(2 * w)
            for y in range(h):
                out[y * 2 * w:(y + 1) * 2 * w] = dark
            return out
        ram = self.ram
        for y in range(h):
            idx, step = self._view_row(y)
            o = y * w * 2
            if step == 2:
                out[o:o + 2 * w] = ram[idx:idx + 2 * w]
                continue
            if _gathered(out, o, ram, idx, step, w):
                continue
            for _ in range(w):
                out[o] = ram[idx]
                out[o + 1] = ram[idx + 1]
                idx += step
                o += 2
        if self.inv_on != self.panel_inverts:  # an IPS panel inverts by itself; INVON undoes it
            try:
                out[:] = out.translate(_INVERT)
            except AttributeError:  # MicroPython's bytearray has no translate
                for i in range(len(out)):
                    out[i] ^= 0xFF
        if bool(self.madctl & 0x08) != self.PANEL_BGR:  # the other order: the panel's red and blue swap
            for i in range(0, len(out), 2):
                v = out[i] << 8 | out[i + 1]
                v = (v & 0x1F) << 11 | (v & 0x07E0) | v >> 11
                out[i] = v >> 8
                out[i + 1] = v & 0xFF
        return out

    def _view_row(self, y):
        """RAM offset of the viewer's pixel (0, y) and the step to (1, y)."""
        k, pw, ph = self.rotation, self.panel_w, self.panel_h
        # The panel's portrait pixel (px, py) under the viewer's (0, y), and its change per x.
        if k == 0:
            px, py, dx, dy = 0, y, 1, 0
        elif k == 1:
            px, py, dx, dy = pw - 1 - y, 0, 0, 1
        elif k == 2:
            px, py, dx, dy = pw - 1, ph - 1 - y, -1, 0
        else:
            px, py, dx, dy = y, ph - 1, 0, -1
        return (py * pw + px) * 2, (dy * pw + dx) * 2


_INVERT = bytes(255 - b for b in range(256))


def _gathered(out, o, ram, idx, step, w):
    # A row of w pixels `step` bytes apart in ram, into out from o on, with extended slices (as above).
    stop = idx + step * w
    try:
        out[o:o + 2 * w:2] = ram[idx:stop if stop >= 0 else None:step]
        out[o + 1:o + 2 * w:2] = ram[idx + 1:stop + 1 if stop + 1 >= 0 else None:step]
    except NotImplementedError:
        return False
    return True
