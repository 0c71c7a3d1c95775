# The rules screen on the simulated device: values, cards, two players, the +4 bluff check, UNO, scoring,
# dealing, teams; both languages, both sizes.
# slow: every rules page in both languages (about 7 s)
import sys

import framebuf

from tafel.game import Game
from ui.canvas import Canvas
from ui.rules import Rules
from uisim import device


def rules(lang="de", size=None):
    """A device showing the rules screen; every text drawn is checked against the screen's width.

    `size` (width, height) in pixels gives it a bigger display: 160 x 120 is the text grid
    of the 320 x 240 board (20 x 15), 240 x 128 that of a colour board with its own font (30 x 16).
    """
    dev = device()
    if size is not None:
        dev.app.canvas = Canvas(_Display(size[0], size[1]), True)
    if lang == "en":
        dev.app.settings["lang"] = "en"
        dev.app.set_language("en")
    canvas = dev.app.canvas
    draw = canvas.text
    dev.wide = []

    def text(row, col, s, invert=False):
        if col + len(s) > canvas.cols:
            dev.wide.append(s)
        draw(row, col, s, invert)

    canvas.text = text
    dev.app.push(Rules(dev.app))
    dev.play("wait:20")
    return dev


class _Display(framebuf.FrameBuffer):
    # A plain mono display of another size: the canvas reads its grid from width and height.
    def __init__(self, width, height):
        self.width = width
        self.height = height
        super().__init__(bytearray(width * ((height + 7) // 8)), width, height, framebuf.MONO_VLSB)

    def show(self):
        pass


def body(dev):
    return "\n".join(dev.screen()[1:])


def to_end(dev, presses=120):
    """Scroll down to the last line; the screens on the way, top rows joined."""
    seen = []
    for _ in range(presses):
        seen.append(dev.screen())
        before = dev.screen()
        dev.play("D")
        if dev.screen() == before:
            break
    return seen


def test_the_menu_lists_the_pages_and_the_keys():
    dev = rules()
    screen = dev.screen()
    assert screen[0] == "Regeln       6/9"  # nine entries: the last row in view of all
    assert screen[1:7] == ["►Kartenwerte", " Was Karten tun", " +4 anzweifeln", " Bluff prüfen", " Zu zweit",
                           " UNO rufen"]
    assert screen[7] == "#=lesen *=zurück"
    dev.play("C")  # up from the first entry: the last, the menu scrolled to its end
    assert dev.screen()[:7] == ["Regeln       9/9", " Bluff prüfen", " Zu zweit", " UNO rufen", " Wertung bis 500",
                                " Geben", "►Im Team"]
    assert dev.errors == [] and dev.wide == []


def test_card_values_page_scrolls_with_a_position_mark():
    dev = rules()
    dev.play("#")
    screen = dev.screen()
    assert screen[0] == "Punkte      7/19"
    assert screen[1] == "0-9     Zahlwert"
    assert "Zieh Vier     50" in screen and "Handtausch    40" in screen
    to_end(dev)
    screen = dev.screen()
    assert screen[0] == "Punkte     19/19"
    assert screen[-1] == "vereinbaren."
    dev.play("C C C C")
    screen = dev.screen()
    assert screen[0] == "Punkte     15/19"
    assert screen[1:3] == ["108 Karten  1240", "112 Karten  1400"]
    assert dev.errors == [] and dev.wide == []


def test_card_values_of_a_game_with_house_values():
    dev = rules()
    dev.app.session.game = Game(["Anna", "Ben"], values={"swap": 50, "blank": 50})
    dev.play("# D D D")
    assert dev.screen()[0] == "Punkte     10/21"
    text = body(dev)
    assert "Werte dieses" not in text and "Handtausch    50" in text and "Blanko        50" in text
    dev.play("C C C")
    assert dev.screen()[1:3] == ["Werte dieses", "Spiels:"]
    assert dev.wide == []


def test_what_each_card_does_reads_to_the_end():
    dev = rules()
    dev.play("2")
    assert dev.screen()[0].startswith("Karten ")
    lines = []
    for screen in to_end(dev):
        lines.append(screen[1])
    lines.extend(dev.screen()[2:])
    text = " ".join(lines)
    for name in ("Aussetzen:", "Retour:", "Zieh Zwei:", "Farbenwahl:", "Zieh Vier:", "Handtausch:", "Blanko:"):
        assert name in text
    total = dev.screen()[0].split()[-1].split("/")
    assert total[0] == total[1]
    assert dev.errors == [] and dev.wide == []


def test_two_player_specials_and_back_to_the_menu():
    dev = rules()
    dev.play("5")
    assert dev.screen()[0].startswith("Zu zweit")
    assert "Retour wirkt wie" in body(dev)
    dev.play("*")
    assert dev.screen()[0].startswith("Regeln") and dev.screen()[5] == "►Zu zweit"


def read(dev, key):
    """Open a menu entry by its digit and read the page to its end: (title, the page's text)."""
    dev.play(key)
    title = dev.screen()[0].rsplit(" ", 1)[0].strip()
    lines = []
    for screen in to_end(dev):
        lines.append(screen[1])
    lines.extend(dev.screen()[2:])
    dev.play("*")
    return title, " ".join(lines)


def test_calling_uno_scoring_dealing_and_teams_in_german():
    dev = rules()
    title, text = read(dev, "6")
    assert title == "UNO!" and "kostet es 2 Strafkarten." in text
    title, text = read(dev, "7")
    assert title == "Wertung" and "(meist 500)." in text and "Minuspunkte:" in text
    title, text = read(dev, "8")
    assert title == "Geben" and "Jeder erhält 7 Karten" in text
    title, text = read(dev, "9")
    assert title == "Im Team" and "(Anna & Ben)." in text
    assert dev.screen()[0] == "Regeln       9/9" and dev.screen()[-2] == "►Im Team"
    assert dev.errors == [] and dev.wide == []


def test_calling_uno_scoring_dealing_and_teams_in_english():
    dev = rules("en")
    assert read(dev, "6")[0] == "UNO!" and "draw 2 penalty cards." in read(dev, "6")[1]
    title, text = read(dev, "7")
    assert title == "Scoring" and "usually 500," in text and "Minuspunkte" in text
    assert "Each player gets 7 cards" in read(dev, "8")[1]
    assert "Partners sit opposite each other." in read(dev, "9")[1]
    assert dev.errors == [] and dev.wide == []


def test_a_challenge_where_the_hand_held_the_colour_is_a_bluff():
    dev = rules()
    dev.play("4")
    screen = dev.screen()
    assert screen[0] == "Bluff?"
    assert screen[1:3] == ["Welche Farbe", "galt vor der +4?"]
    assert screen[3:7] == ["►Rot", " Gelb", " Grün", " Blau"]
    dev.play("D #")  # Gelb
    text = body(dev)
    assert "Karte in Gelb?" in text and "►Ja" in text and " Nein" in text
    dev.play("#")  # yes, the hand held yellow
    screen = dev.screen()
    assert screen[0] == "Bluff!"
    text = " ".join(screen[1:])
    assert "Der Leger hatte Gelb und zieht selbst 4 Karten." in text
    assert "Zweifler spielt normal weiter." in text
    assert dev.errors == [] and dev.wide == []


def test_a_challenge_where_the_hand_lacked_the_colour_is_honest():
    dev = rules()
    dev.play("4 # D #")  # Rot, then "Nein"
    screen = dev.screen()
    assert screen[0] == "Ehrlich"
    text = " ".join(screen[1:])
    assert "hatte kein Rot" in text and "Der Zweifler zieht 6 Karten und setzt aus." in text
    dev.play("#")  # another check starts at the colour again
    assert dev.screen()[0] == "Bluff?" and dev.screen()[3] == "►Rot"
    assert dev.errors == [] and dev.wide == []


def test_the_steps_of_a_challenge_lead_to_the_check():
    dev = rules()
    dev.play("3")
    assert dev.screen()[0].startswith("+4 Zweifel")
    assert dev.screen()[1].startswith("1. Anzweifeln")
    to_end(dev)
    assert dev.screen()[-1] == "# = Bluff prüfen"
    dev.play("#")
    assert dev.screen()[0] == "Bluff?"
    dev.play("*")
    assert dev.screen()[0].startswith("Regeln")


def test_the_knob_scrolls_and_its_push_picks():
    dev = rules()
    dev.play("CW CW CW PUSH")  # Bluff prüfen
    assert dev.screen()[0] == "Bluff?"
    dev.play("CW CW CW PUSH PUSH")  # Blau, Ja
    assert dev.screen()[0] == "Bluff!" and "Blau" in body(dev)
    dev.play("*")
    assert dev.screen()[4] == "►Bluff prüfen"


def test_english_texts_and_both_verdicts():
    dev = rules("en")
    screen = dev.screen()
    assert screen[0] == "Rules        6/9" and screen[1] == "►Card values" and screen[7] == "#=read *=back"
    dev.play("4 D D #")  # green
    assert dev.screen()[1:8] == ["Before the +4:", "any green card", "in the hand?", "Black cards do",
                                 "not count.", "►Yes", " No"]
    dev.play("#")
    assert dev.screen()[0] == "Bluff!"
    assert "held green and draws 4 cards" in " ".join(dev.screen()[1:])
    dev.play("# D D # D #")  # green again, "No"
    assert dev.screen()[0] == "Honest"
    assert "The challenger draws 6 cards and misses the turn." in " ".join(dev.screen()[1:])
    for key in "12356789":
        dev.play("* " + key)
        to_end(dev)
    assert dev.errors == [] and dev.wide == []


def test_every_page_fits_the_small_screen_in_both_languages():
    for lang in ("de", "en"):
        dev = rules(lang)
        for key in "123456789":
            dev.play(key)
            to_end(dev)
            dev.play("# # wait:20 *")
        assert dev.errors == [] and dev.wide == [], (lang, dev.wide)


def test_a_bigger_display_shows_more_of_each_page():
    dev = rules("de", (240, 128))
    assert len(dev.screen()) == 16
    dev.play("2")
    screen = dev.screen()
    assert screen[0].startswith("Karten") and screen[0].endswith("15/" + screen[0].split("/")[-1])
    assert max(len(row) for row in screen[1:]) > 16
    assert screen[15] != ""
    dev.play("* 4 # #")
    assert dev.screen()[0] == "Bluff!"
    assert dev.screen()[1] == "Der Leger hatte Rot und zieht"
    for size in ((160, 120), (240, 128)):
        for lang in ("de", "en"):
            dev = rules(lang, size)
            for key in "123456789":
                dev.play(key)
                to_end(dev)
                dev.play("# # *")
            assert dev.errors == [] and dev.wide == [], (size, lang, dev.wide)


def test_wrong_keys_change_nothing():
    dev = rules()
    before = dev.screen()
    dev.play("0 A B")
    assert dev.screen() == before
    dev.play("2")
    before = dev.screen()
    dev.play("A B 0 9")
    assert dev.screen() == before


def test_closing_the_screen_lets_the_rulebook_go():
    dev = rules()
    dev.play("4 # #")
    assert "tafel.rulebook_de" in sys.modules and "tafel.referee" in sys.modules
    dev.play("* *")
    assert not isinstance(dev.app.screen, Rules)
    for name in ("tafel.rulebook", "tafel.rulebook_de", "tafel.referee"):
        assert name not in sys.modules, name
    assert dev.errors == []
