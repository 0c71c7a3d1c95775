# The laptop speaks the table's language: how `tafel` chooses German or English, and that German output holds no English.
import csv
import io
import json
import re
from types import SimpleNamespace

import pytest

from export_fixtures import EVENING, doc, play
from fakedevice import FakeDevice
from tafel import rulebook
from tafel_host import lang, texts_de, texts_de_club, texts_de_tools, texts_en, texts_en_club, texts_en_tools
from tafel_host.cli import main
from tafel_host.link import ports

TABLE = ("Jürgen", "Özlem", "Anna & Ben", "Käthe")

# Words that give English away; none of them is German (command names such as `history`, and words
# German shares, such as Hand, Standard, Laptop, Export, are left out).
ENGLISH = {
    "game", "games", "point", "points", "won", "win", "wins", "round", "rounds", "player", "players", "device",
    "devices", "error", "the", "and", "of", "with", "from", "finished", "ended", "early", "total", "target",
    "winner", "wrote", "cannot", "file", "folder", "there", "no", "not", "yet", "is", "are", "by", "to",
    "stored", "free", "next", "set", "never", "last", "state", "created", "variant", "open",
    "played", "being", "penalty", "better", "fewer", "more", "per", "evening", "chart", "date",
    "unknown", "confirmed", "bundle", "score", "seat", "values", "cards", "interrupted",
    "card", "colour", "color", "needs", "number", "numbers", "word", "rank", "red", "blue", "green", "yellow",
    "black", "wild", "say", "serial", "seen", "found", "answered", "running", "use", "plug", "cable",
    "several", "choose", "one", "on", "your", "wait", "retry",
}


@pytest.fixture
def no_language(monkeypatch):
    """A laptop whose environment names no language at all (the autouse fixture set TAFEL_LANG=en)."""
    for name in ("TAFEL_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


# -- choosing the language --

def test_the_flag_wins_then_tafel_lang_then_the_locale():
    assert lang.choose("de", {"TAFEL_LANG": "en", "LANG": "en_US.UTF-8"}) == "de"
    assert lang.choose(None, {"TAFEL_LANG": "de", "LANG": "en_US.UTF-8"}) == "de"
    assert lang.choose(None, {"TAFEL_LANG": "en", "LANG": "de_DE.UTF-8"}) == "en"
    assert lang.choose(None, {"LANG": "de_DE.UTF-8"}) == "de"
    assert lang.choose(None, {"LANG": "de_AT"}) == "de"


def test_the_locale_is_read_as_posix_orders_it_and_anything_but_german_is_english():
    assert lang.choose(None, {"LC_ALL": "en_GB.UTF-8", "LC_MESSAGES": "de_DE", "LANG": "de_DE"}) == "en"
    assert lang.choose(None, {"LC_MESSAGES": "de_CH.UTF-8", "LANG": "en_US"}) == "de"
    assert lang.choose(None, {"LC_ALL": "", "LANG": "de_DE.UTF-8"}) == "de"  # set but empty: skipped
    assert lang.choose(None, {"LANG": "fr_FR.UTF-8"}) == "en"
    assert lang.choose(None, {"LANG": "C.UTF-8"}) == "en"
    assert lang.choose(None, {}) == "en"


@pytest.mark.parametrize("german, english", [(texts_de.TEXTS, texts_en.TEXTS),
                                              (texts_de_tools.TEXTS, texts_en_tools.TEXTS),
                                              (texts_de_club.TEXTS, texts_en_club.TEXTS)])
def test_both_catalogues_have_the_same_texts_with_the_same_placeholders(german, english):
    assert set(german) == set(english)
    for key, text in english.items():
        assert type(german[key]) is type(text), key
        if isinstance(text, tuple):
            assert len(text) == len(german[key]) == 2, key
        else:
            assert re.findall(r"%[-+0-9.]*[a-z%]", text) == re.findall(r"%[-+0-9.]*[a-z%]", german[key]), key


def test_a_languages_files_of_texts_share_no_key():
    for files in ((texts_en, texts_en_tools, texts_en_club), (texts_de, texts_de_tools, texts_de_club)):
        keys = [key for module in files for key in module.TEXTS]
        assert len(keys) == len(set(keys))


def test_tafel_rules_shows_the_german_rulebook_under_a_german_locale(no_language, capsys):
    no_language.setenv("LANG", "de_DE.UTF-8")
    assert main(["rules", "--section", "values"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == rulebook.book("de").MENU[0]
    assert main(["rules", "--section", "values", "--lang", "en"]) == 0  # the flag over the locale
    assert capsys.readouterr().out.splitlines()[0] == rulebook.book("en").MENU[0]
    no_language.setenv("LANG", "en_US.UTF-8")
    assert main(["--lang", "de", "rules", "--section", "values"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == rulebook.book("de").MENU[0]


def test_lang_is_taken_before_the_command_and_after_it(tmp_path, capsys):
    db = str(tmp_path / "h.sqlite3")
    assert main(["--lang", "de", "history", "--db", db]) == 0
    assert main(["history", "--db", db, "--lang", "de"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("noch keine Spiele") and out[1].startswith("noch keine Spiele")
    with pytest.raises(SystemExit) as refused:
        main(["--lang", "fr", "history"])
    assert refused.value.code == 2


# -- no English word in German output --

def evening_export():
    """A standard game won by Jürgen and a Minuspunkte game the table ended early, at a German table."""
    standard = play([("Jürgen", {"Özlem": 100, "Anna & Ben": 150, "Käthe": 200}),
                     ("Özlem", {"Jürgen": 20, "Anna & Ben": 30, "Käthe": 25})], players=TABLE, game_id=1)
    penalty = play([(None, {"Jürgen": 30, "Özlem": 10, "Anna & Ben": 20, "Käthe": 40}),
                    ("Özlem", {"Jürgen": 45, "Anna & Ben": 20, "Käthe": 40})],
                   players=TABLE, variant="penalty", target=250, game_id=2, created=EVENING + 3600, finish=True)
    return doc([standard, penalty])


def english_words(text, tmp_path):
    text = text.replace(str(tmp_path), "PFAD")
    text = re.sub(r"--[a-z][a-z-]*", " ", text)  # option names (--colour, --port) are the command's words
    text = re.sub(r"<style>.*?</style>|src=\"[^\"]*\"|<[^>]+>", " ", text, flags=re.S)
    return sorted({word for word in re.findall(r"[A-Za-zÄÖÜäöüß]+", text) if word.lower() in ENGLISH})


def run_de(capsys, tmp_path, *argv):
    code = main(["--lang", "de", *argv])
    out, err = capsys.readouterr()
    assert english_words(out + err, tmp_path) == [], (argv, out + err)
    return code, out, err


def test_no_english_word_reaches_german_output(tmp_path, capsys, monkeypatch, data_home):
    monkeypatch.chdir(tmp_path)
    db = str(tmp_path / "h.sqlite3")
    (tmp_path / "abend.json").write_text(json.dumps(evening_export()), encoding="utf-8")
    (tmp_path / "kein.json").write_text("{}")
    commands = [
        ["history", "import", "abend.json", "--db", db],
        ["history", "--db", db],
        ["chart", "2", "--db", db, "-o", "s.png"],
        ["points", "rot 7", "Blau Aussetzen"],
        ["rules"],
        ["rules", "play", "rot 6", "--hand", "rot 3", "blau 6"],
        # the common errors
        ["history", "import", "kein.json", "--db", db],
        ["history", "import", "fehlt.json", "--db", db],
        ["chart", "9", "--db", db],
        ["chart", "neun", "--db", db],
        ["history", "--db", db, "--evening", "1999-12-31"],
        ["report", "--db", db, "--evening", "1999-12-31"],
        ["history", "--db", str(tmp_path / "leer.sqlite3")],
    ]
    codes = [run_de(capsys, tmp_path, *argv)[0] for argv in commands]
    assert codes == [0, 0, 0, 0, 0, 0, 2, 2, 2, 2, 2, 2, 0]
    code, out, _ = run_de(capsys, tmp_path, "report", "--db", db, "-o", "abend.html")
    assert code == 0
    page = (tmp_path / "abend.html").read_text(encoding="utf-8")
    assert english_words(page, tmp_path) == [] and '<html lang="de">' in page


def test_tafel_info_in_german_keeps_every_name_whole(capsys, data_home, tmp_path):
    _, data = play([("Käthe", {"Jürgen": 7, "Özlem": 9, "Anna & Ben": 3})], players=TABLE, game_id=4)
    dev = FakeDevice([(4, [data])])
    try:
        code, out, _ = run_de(capsys, tmp_path, "info", "--port", dev.url)
        assert code == 0
        assert "Jürgen, Özlem, Anna & Ben, Käthe" in out
        assert main(["info", "--port", dev.url]) == 0  # and in English
        assert "Jürgen, Özlem, Anna & Ben, Käthe" in capsys.readouterr().out
    finally:
        dev.close()


def test_counts_are_singular_for_one_in_both_languages(tmp_path, capsys):
    db = str(tmp_path / "h.sqlite3")
    (tmp_path / "a.json").write_text(json.dumps(evening_export()), encoding="utf-8")
    assert main(["history", "import", str(tmp_path / "a.json"), "--db", db]) == 0
    assert "history: 2 games from 1 device in" in capsys.readouterr().out
    assert main(["--lang", "de", "history", "import", str(tmp_path / "a.json"), "--db", db]) == 0
    assert "Verlauf: 2 Spiele von 1 Gerät in" in capsys.readouterr().out


# -- CSV for Excel --

def excel_rows(raw, separator):
    assert raw.startswith(b"\xef\xbb\xbf")  # the byte order mark that makes Excel read UTF-8
    return list(csv.reader(io.StringIO(raw[3:].decode("utf-8")), delimiter=separator))


def test_export_excel_writes_a_bom_and_the_separator_of_the_languages_excel(capsys, data_home, tmp_path):
    _, data = play([("Käthe", {"Jürgen": 7, "Özlem": 9, "Anna & Ben": 3})], players=TABLE, game_id=4)
    dev = FakeDevice([(4, [data])])
    try:
        assert main(["--lang", "de", "export", "--excel", "--port", dev.url, "-o", str(tmp_path / "de.csv")]) == 0
        assert main(["export", "--excel", "--port", dev.url, "-o", str(tmp_path / "en.csv")]) == 0
        assert main(["export", "--port", dev.url, "-o", str(tmp_path / "plain.csv")]) == 0
        assert main(["export", "--excel", "--format", "json", "--port", dev.url]) == 2
    finally:
        dev.close()
    german = excel_rows((tmp_path / "de.csv").read_bytes(), ";")
    assert german[0][:8] == ["Gerät", "Spiel", "begonnen", "Variante", "Ziel", "Runde", "Platz", "Spieler"]
    assert [row[7] for row in german[1:]] == list(TABLE) and german[1][3] == "UNO"
    english = excel_rows((tmp_path / "en.csv").read_bytes(), ",")
    assert english[0][7] == "player" and [row[7] for row in english[1:]] == list(TABLE)
    plain = (tmp_path / "plain.csv").read_bytes()  # without --excel: as before, for programs
    assert plain.startswith(b"device,game,created,") and "Käthe".encode() in plain


def test_the_devices_flash_notes_and_link_errors_are_told_in_german():
    from tafel_host.link import storage_notes
    from tafel_host.link.errors import DeviceError, NoisyLine

    lang.use("de")
    assert storage_notes.say({"key": "game_lost", "game": 7, "detail": None}) == \
        "Spiel 7 steht in der Liste, aber sein Journal fehlt in beiden Kopien"
    assert storage_notes.say({"key": "flash_low", "game": None, "detail": "12"}) == "der Flash ist fast voll: 12 KB frei"
    assert str(DeviceError("busy")) == "das Gerät meldet busy"
    assert str(NoisyLine(3, 10)).startswith("die Leitung zum Gerät ist gestört: 3 von 10")


# -- the port search and card names --

class Answered:
    def __init__(self, device_id):
        self.hello = {"device": device_id}

    def close(self):
        pass


def test_the_port_search_tells_in_german_what_it_found_and_tried(capsys, data_home, tmp_path, monkeypatch):
    seen = [SimpleNamespace(device="/dev/ttyS0", vid=None, pid=None)]
    monkeypatch.setattr("tafel_host.link.ports.comports", lambda: seen)
    code, _, err = run_de(capsys, tmp_path, "info")
    assert code == 3 and err.startswith("tafel: keine Tafel gefunden") and "Ports: /dev/ttyS0" in err
    assert run_de(capsys, tmp_path, "export")[0] == 3
    bridges = [SimpleNamespace(device="/dev/ttyUSB%d" % i, vid=0x10C4, pid=0xEA60) for i in (0, 1)]
    lang.use("de")

    def silent(port):
        raise RuntimeError("")

    said = []
    for probe, platform, code in ((silent, "darwin", 3), (lambda port: Answered(port[-1]), "win32", 2)):
        with pytest.raises(ports.PortError) as failed:
            ports.find(probe, list_ports=lambda: bridges, platform=platform,
                       sims=lambda: [("/dev/pts/3", 4242)])
        assert failed.value.code == code
        assert english_words(str(failed.value), tmp_path) == [], str(failed.value)
        said.append(str(failed.value))
    assert "/dev/pts/3 (Tafel-Simulator, PID 4242)" in said[0] and "Unter macOS" in said[0]
    assert said[1].startswith("mehrere Tafel-Geräte haben geantwortet: /dev/ttyUSB0 (Gerät 0), /dev/ttyUSB1")


CARD_ERRORS = [
    ["points", "blau -1"], ["points", "rot 10"], ["points", "Zieh"], ["points", "rot"], ["points", "lila 7"],
    ["points", "schwarz"], ["points", "rot Zieh Fünf"], ["points", ""], ["points", "rot Joker"],
    ["points", "grün Quatsch Zwei"], ["points", "7", "--value", "Joker=10000"], ["points", "7", "--value", "Joker"],
    ["points", "7", "--value", "Joker=viel"], ["points", "7", "--value", "Purzel=5"],
    ["rules", "play", "7", "--hand", "rot 3"], ["rules", "play", "rot 6", "--hand", "schwarz 6"],
    ["rules", "play", "Joker", "--hand", "rot 3", "--colour", "lila"],
    ["rules", "challenge", "Joker", "--hand", "rot 3"], ["rules", "challenge", "lila", "--hand", "rot 3"],
]


@pytest.mark.parametrize("argv", CARD_ERRORS, ids=" ".join)
def test_a_card_names_error_is_told_in_german_with_the_word_as_given(argv, capsys, tmp_path):
    code, out, err = run_de(capsys, tmp_path, *argv)
    assert code == 2 and out == "" and err.startswith("tafel: ")
    assert main(argv) == 2  # and in English, as the core says it
    assert capsys.readouterr().err.startswith("tafel: ")


def test_card_errors_name_the_card_in_both_languages(capsys):
    assert main(["--lang", "de", "points", "blau -1"]) == 2
    assert capsys.readouterr().err == "tafel: 'blau -1' ist keine Karte: die Zahlen gehen von 0 bis 9, nicht -1\n"
    assert main(["points", "blue -1"]) == 2
    assert capsys.readouterr().err == "tafel: 'blue -1' is no card: numbers run from 0 to 9, not -1\n"
    assert main(["--lang", "de", "rules", "play", "7", "--hand", "rot 3"]) == 2
    assert capsys.readouterr().err == "tafel: '7' braucht eine Farbe, z.B. 'rot 7'\n"


# -- tafel roster and tafel clock --

def test_roster_and_clock_speak_german_and_keep_their_exit_codes(capsys, data_home, tmp_path, monkeypatch):
    dev = FakeDevice([])
    try:
        url = dev.url
        code, out, err = run_de(capsys, tmp_path, "roster", "push", *TABLE, "--port", url)
        assert code == 0 and out.startswith("Namensliste: 4 Namen auf "), err
        assert dev.roster == list(TABLE)
        code, out, _ = run_de(capsys, tmp_path, "roster", "pull", "--port", url)
        assert code == 0 and out.splitlines() == list(TABLE)
        refused = [["roster", "push", "--port", url], ["roster", "push", "", "--port", url],
                   ["roster", "push", "Cleo\x1b[2J", "--port", url], ["roster", "push", "x" * 40, "--port", url],
                   ["roster", "push", *("P%d" % i for i in range(70)), "--port", url],
                   ["roster", "push", "--file", str(tmp_path / "fehlt.txt"), "--port", url]]
        for argv in refused:
            code, _, err = run_de(capsys, tmp_path, *argv)
            assert code == 2 and err.startswith("tafel: "), argv
        assert dev.roster == list(TABLE)  # nothing was sent
        code, out, _ = run_de(capsys, tmp_path, "clock", "--port", url)
        assert code == 0 and "sie war nicht gestellt" in out
        code, out, _ = run_de(capsys, tmp_path, "clock", "--port", url)
        assert code == 0 and "sie stand auf" in out
        code, out, _ = run_de(capsys, tmp_path, "roster", "clear", "--port", url)
        assert code == 0 and out.startswith("Namensliste von ") and dev.roster == []
        monkeypatch.setattr("tafel_host.link.cli.time.time", lambda: 0)
        code, _, err = run_de(capsys, tmp_path, "clock", "--port", url)
        assert code == 2 and "Die Uhr dieses Laptops richtig stellen" in err
    finally:
        dev.close()
