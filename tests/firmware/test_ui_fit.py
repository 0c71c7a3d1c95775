# Every screen fits every board: 2, 6 and 10 seats, long and look-alike names, five-digit totals and
# slow: every screen on every board in both languages (about a minute)
# a tie, walked through in both languages; no text drawn over other text, none past the row's end.
#
# The canvas is watched while the real screens draw (every text call, cell by cell, since its row was
# last cleared): two texts in one cell is an overlap, a text reaching past the last column is cut.
# A cut name is allowed only where the screen shows it in full elsewhere (its marquee), which these
# walks check separately by reading the hint line and the running name.
import os

from sim.device import Device
from sim.flashdev import FlashDev

BOARDS = "hardware/boards"
NAMES = ("Christina", "Christian", "Christoph", "Anna & Ben", "Anna & Cleo", "Maximilian",
         "Jo", "Ben", "Cleo", "Dirk")


def boards():
    return sorted(BOARDS + "/" + f for f in os.listdir(BOARDS) if f.endswith(".json"))


class Watch:
    """Wraps a canvas: what was drawn where since each row's last clear."""

    def __init__(self, canvas):
        self.canvas = canvas
        self.cells = [bytearray(canvas.cols) for _ in range(canvas.rows)]
        self.problems = []
        self.where = ""
        text, clear = canvas.text, canvas.clear

        def clear_row(row):
            self.cells[row] = bytearray(canvas.cols)
            clear(row)

        def draw(row, col, s, invert=False):
            cells = self.cells[row]
            if col < 0 or col + len(s) > canvas.cols:
                self.problems.append("%s: row %d cut: %r at column %d" % (self.where, row, s, col))
            for i in range(len(s)):
                c = col + i
                if 0 <= c < canvas.cols and (s[i] != " " or invert):
                    if cells[c] and s[i] != " ":
                        self.problems.append("%s: row %d column %d drawn twice (%r)" % (self.where, row, c, s))
                    cells[c] = 1
            text(row, col, s, invert)

        canvas.clear = clear_row
        canvas.text = draw


def device(profile, lang):
    dev = Device(profile, flash=FlashDev())
    dev.errors = []
    dev.app.log = dev.errors.append
    if lang != "de":
        dev.app.settings["lang"] = lang
        dev.app.set_language(lang)
    dev.watch = Watch(dev.app.canvas)
    dev.app.screen.touch()
    return dev


def play(dev, keys, where):
    dev.watch.where = where
    dev.play(keys)


def a_long_game(dev, n):
    """n seats, look-alike names, five-digit totals, the first min(n, 4) seats level."""
    session = dev.app.session
    names = NAMES[:n]
    session.start(names, "standard", 99999)
    level = min(n, 4)
    per_round = (n - 1) * 999
    rounds = level * ((10000 + per_round - 1) // per_round)
    for r in range(rounds):
        winner = names[r % level]
        session.save_round({name: [999] for name in names if name != winner}, winner)
    dev.app.show_game()
    dev.app.screen.touch()
    return names


def scroll(dev, keys, where, most=14):
    # Down until the screen stops changing (or `most` presses).
    before = None
    for _ in range(most):
        play(dev, keys, where)
        now = dev.screen()
        if now == before:
            return
        before = now


def walk(profile, lang, n):
    dev = device(profile, lang)
    names = a_long_game(dev, n)
    tag = "%s %s %d seats" % (profile.rsplit("/", 1)[-1], lang, n)
    play(dev, "wait:3000", tag + " standings")
    assert "R%d" % len(dev.app.session.game.rounds) in dev.screen()[0].split(), (tag, dev.screen()[0])
    scroll(dev, "D", tag + " standings")
    play(dev, "wait:3000 wait:3000", tag + " table view")  # the standings rested: the large digits
    assert type(dev.app.screen).__name__ == "TableView", tag
    play(dev, "wait:4000", tag + " table view, next page")
    play(dev, "*", tag + " standings again")
    # round entry: a Sieger, hands of every size, a team's two parts; a long name runs past
    keys = ["A"] + ["D 9 9 9"] * (n - 2) + ["D 1 2 B 3 4"]
    play(dev, "# " + " ".join(keys), tag + " entry")
    play(dev, "C " * (n - 1) + "wait:600 wait:600 wait:600", tag + " entry")
    play(dev, "D " * (n - 1) + "#", tag + " check")
    scroll(dev, "D", tag + " check")
    play(dev, "*", tag + " back to the entry")
    dev.app.show_game()  # (leaving by keys is the flows' test)
    dev.app.screen.touch()
    play(dev, "B", tag + " rounds")
    for row in dev.screen()[1:-1]:  # each round's whole points, beside its Sieger
        assert row[1:2].isdigit() is False or row.endswith(" +%d" % ((n - 1) * 999)), (tag, row)
    scroll(dev, "D", tag + " rounds")
    play(dev, "* B C #", tag + " end game?")  # the list afresh, up to its last entry
    play(dev, "#", tag + " game over")  # ended now: its leaders share the win
    winners = dev.app.session.game.winners()
    assert len(winners) == min(n, 4)
    shown = "\n".join(dev.screen())
    scroll(dev, "D", tag + " game over")
    shown += "\n".join(dev.screen())
    for name in winners:  # each winner on a line of their own, whole
        assert "\n" + " " * ((dev.app.canvas.cols - len(name)) // 2) + name + "\n" in "\n" + shown + "\n", (tag, name)
    play(dev, "# 3", tag + " history")
    scroll(dev, "D", tag + " history")
    play(dev, "#", tag + " history game")
    scroll(dev, "B", tag + " history game")
    play(dev, "* * 4", tag + " settings")
    scroll(dev, "D", tag + " settings")
    play(dev, "* 5", tag + " rules")
    for entry in "123456789":  # every page of the rulebook, scrolled through
        play(dev, entry, tag + " rules " + entry)
        scroll(dev, "D", tag + " rules " + entry, 40)
        play(dev, "*", tag + " rules")
    play(dev, "* 6", tag + " about")
    play(dev, "* 1", tag + " setup")
    scroll(dev, "D", tag + " setup")
    play(dev, "C C #", tag + " card values")  # "Werte": the last row; its editor
    scroll(dev, "D", tag + " card values", 20)
    assert dev.errors == [], (tag, dev.errors)
    return dev.watch.problems, names


def check(profile):
    problems = []
    for lang in ("de", "en"):
        for n in (2, 6, 10):
            found, _ = walk(profile, lang, n)
            problems.extend(found)
    assert problems == [], "\n".join(problems[:20])


def test_every_screen_fits_the_oled_board():
    check(BOARDS + "/esp32-devkitc-ssd1306.json")


def test_every_board_profile_is_walked():
    # The colour boards show the same text cells (a 16 x 8 picture at 2x, or more cells where a
    # board's profile asks for bigger text): each is walked with 10 seats in both languages.
    for profile in boards():
        if profile.endswith("ssd1306.json"):
            continue
        problems = []
        for lang in ("de", "en"):
            found, _ = walk(profile, lang, 10)
            problems.extend(found)
        assert problems == [], "\n".join(problems[:20])
