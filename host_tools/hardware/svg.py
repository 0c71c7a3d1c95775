# The wiring diagram of a board as a self-made SVG: the ESP32 board on the left, the parts on the right.
#
# Every signal wire is a straight horizontal line from the board's pin to the
# part's pin, drawn in its suggested colour and labelled with the GPIO
# number, so no two lines cross. Power pins end in net labels (3V3, GND)
# instead of lines: every 3V3 is the board's 3V3 pin, every GND its GND.
# Parts soldered on the board itself are drawn dashed. Same profile in, same
# bytes out: no dates, no dictionary order, fixed number formats.
from xml.sax.saxutils import escape

from .model import parts

COLOURS = {"black": "#222222", "red": "#d62728", "yellow": "#e8b500", "green": "#2ca02c",
           "blue": "#1f77b4", "orange": "#ff7f0e", "white": "#ffffff", "grey": "#8c8c8c",
           "brown": "#8c564b", "purple": "#9467bd"}
ROW = 26  # one wire
HEAD = 34  # a part's title bar
GAP = 22  # between parts
TOP = 70  # title above the blocks
BOARD_X, BOARD_W = 30, 210
PART_X, PART_W = 540, 380
WIDTH = PART_X + PART_W + 30
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"


def wiring_svg(name, profile, data):
    label = data.get("pin_label", "GPIO %d")
    board = data.get("mcu_board", "ESP32 board")
    out = []
    add = out.append
    y = TOP + HEAD + 2 * ROW + GAP  # below the board's own 3V3 and GND rows
    pins = []  # (y, text) on the board's right edge
    for part in parts(profile, data.get("builtin", ())):
        top = y
        height = HEAD + ROW * len(part.wires) + 8
        dash = ' stroke-dasharray="6 4"' if part.builtin else ""
        add('<rect x="%d" y="%d" width="%d" height="%d" rx="6" fill="#f4f6f8" stroke="#333333" '
            'stroke-width="1.5"%s/>' % (PART_X, top, PART_W, height, dash))
        add(_text(PART_X + 12, top + 22, part.title, weight="bold"))
        if part.builtin:
            add(_text(PART_X + PART_W - 10, top + 22, "on the board", anchor="end", size=11, fill="#555555"))
        y = top + HEAD + ROW // 2
        for wire in part.wires:
            add(_text(PART_X + 12, y + 4, wire.pin, size=12))
            if isinstance(wire.to, int):
                pins.append((y, label % wire.to))
                add(_wire(BOARD_X + BOARD_W, PART_X, y, wire.colour, part.builtin))
                add(_text((BOARD_X + BOARD_W + PART_X) // 2, y - 5, "GPIO %d" % wire.to, anchor="middle",
                          size=12, weight="bold", halo=True))
            else:
                add(_wire(PART_X - 70, PART_X, y, wire.colour, part.builtin))
                add(_net(PART_X - 74, y, wire.to))
            y += ROW
        y = top + height + GAP
    bottom = y - GAP
    head = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
            'font-family="%s">' % (WIDTH, bottom + 56, WIDTH, bottom + 56, FONT),
            "<title>Tafel wiring: %s</title>" % escape(name),
            '<rect width="100%" height="100%" fill="#ffffff"/>',
            _text(BOARD_X, 32, "Tafel wiring: " + name, size=18, weight="bold"),
            _text(BOARD_X, 52, profile["title"], size=12, fill="#444444")]
    # The board: a block as tall as all the parts, with 3V3 and GND on top and the used GPIOs on its edge.
    head.append('<rect x="%d" y="%d" width="%d" height="%d" rx="8" fill="#1d3557" stroke="#0b1b2e" '
                'stroke-width="2"/>' % (BOARD_X, TOP, BOARD_W, bottom - TOP))
    head.append(_text(BOARD_X + 14, TOP + 24, board, size=14, weight="bold", fill="#ffffff"))
    for i, net in enumerate(("3V3", "GND")):
        py = TOP + HEAD + ROW // 2 + i * ROW
        head.append(_text(BOARD_X + BOARD_W - 10, py + 4, net, anchor="end", size=12, fill="#ffffff"))
        head.append(_wire(BOARD_X + BOARD_W, BOARD_X + BOARD_W + 50, py, "red" if net == "3V3" else "black"))
        head.append(_net(BOARD_X + BOARD_W + 54, py, net, anchor="start"))
    for py, text in pins:
        head.append('<circle cx="%d" cy="%d" r="3.5" fill="#f1c40f"/>' % (BOARD_X + BOARD_W, py))
        head.append(_text(BOARD_X + BOARD_W - 10, py + 4, text, anchor="end", size=12, fill="#ffffff"))
    legend = _text(BOARD_X, bottom + 34, "Lines: one wire each, in the suggested colour, labelled with its GPIO; "
                   "dashed: on the board. Every 3V3 label is the board's 3V3 pin, every GND its GND.",
                   size=11, fill="#444444")
    return "\n".join(head + out + [legend, "</svg>"]) + "\n"


def _text(x, y, text, anchor="start", size=13, weight=None, fill="#111111", halo=False):
    extra = ' font-weight="%s"' % weight if weight else ""
    if halo:  # a white outline behind the letters, so a label stays readable on its line
        extra += ' stroke="#ffffff" stroke-width="4" paint-order="stroke"'
    return '<text x="%d" y="%d" font-size="%d" text-anchor="%s" fill="%s"%s>%s</text>' % (
        x, y, size, anchor, fill, extra, escape(str(text)))


def _wire(x1, x2, y, colour, dashed=False):
    dash = ' stroke-dasharray="7 5"' if dashed else ""
    line = '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="%s"%s/>'
    if colour in ("white", "yellow"):  # light wires get a dark edge
        return (line % (x1, y, x2, y, "#555555", "5", dash)) + (line % (x1, y, x2, y, COLOURS[colour], "3", dash))
    return line % (x1, y, x2, y, COLOURS.get(colour, "#333333"), "3", dash)


def _net(x, y, net, anchor="end"):
    colour = {"3V3": "#d62728", "GND": "#222222"}.get(net, "#d62728")
    return _text(x, y + 4, net, anchor=anchor, size=12, weight="bold", fill=colour)
