# The rest of the laptop in German (issue 27): bundles, keys, the device's refusals, update and flash, rescue,
# hardware, calibrate and sim, each run as a user runs it; English stays the default (--help: test_laptop_language_help.py).
import copy
import re

import pytest

from tafel_host import lang
from tafel_host.cli import main

ALLOWED = {"Flash", "Update", "Port", "Image", "Exit", "Bytes"}  # loanwords the German catalogues use (texts_de.py)


def run(capsys, *argv):
    """(exit code, standard output, standard error) of `tafel argv...`; --help and argparse's errors exit."""
    try:
        code = main(list(argv))
    except SystemExit as done:
        code = done.code
    out, err = capsys.readouterr()
    return code, out, err


# -- German output with no English words in it --

# Words that give English away in the tools' output; none is German. Option names, file names, paths,
# a profile's fields and values, record kinds and refusal keys are taken out first (words()).
TOOL_ENGLISH = {
    "the", "and", "of", "with", "from", "is", "are", "not", "no", "to", "by", "on", "its", "it", "this", "that",
    "file", "files", "device", "bundle", "board", "image", "game", "games", "record", "records", "round", "rounds",
    "key", "keys", "signed", "signature", "refused", "cannot", "must", "missing", "found", "written", "wrote",
    "read", "versions", "needs", "there", "whole", "number", "object", "used", "twice", "only", "input",
    "output", "reason", "again", "run", "runs", "steps", "snapshot", "snapshots", "unknown", "token", "tokens",
    "power", "cut", "line", "blocks", "damage", "seen", "copy", "current", "older", "rebuilt",
    "placed", "result", "every", "one", "none", "flash", "serial", "port", "trusted", "trust", "store", "installed",
}


def words(text, *also):
    """The words of output that are prose, without paths, option names, fields and quoted values."""
    for thing in also:
        text = text.replace(str(thing), " ")
    text = re.sub(r"\b(None|True|False)\b", " ", text)  # a value as the profile gave it (%r)
    text = re.sub(r"\([a-z_]+\)$|\([a-z_]+\)(?=\s)", " ", text, flags=re.M)  # a refusal's key: (truncated)
    text = re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`|--?[a-z][a-z-]*|\S*[/.<>_=:@]\S*|tafel( [a-z][a-z-]*){1,2}", " ", text)
    return re.findall(r"[A-Za-zÄÖÜäöüß]+", text)


def english_in(text, *also):
    return sorted({w for w in words(text, *also) if w.lower() in TOOL_ENGLISH and w not in ALLOWED})


def test_every_refusal_is_a_german_sentence_and_the_english_ones_are_unchanged():
    from tafel_host.update import refusals

    details = {"format": 3, "too_large": ("900", "800"), "truncated": "lib/tafel/game.mpy",
               "foreign_key": "0123456789abcdef", "bad_manifest": 4, "wrong_mpy": ("5", "6"), "needs_boot": ("2", "1"),
               "downgrade": ("0.1.0", "0.2.0"), "same_version": "0.2.0", "bad_file": ("main.py", "sha256"),
               "incomplete_app": "main.py", "version_mismatch": ("0.1.0", "0.2.0"), "no_space": ("1200", "300"),
               "on_trial": "0.2.0", "incomplete": "3", "no_network": "wrong password"}
    keys = sorted(refusals._SENTENCES) + ["no_such_key"]
    lang.use("en")
    english = [refusals.sentence(key, details.get(key)) for key in keys]
    assert english[keys.index("downgrade")] == ("The bundle holds 0.1.0, older than the 0.2.0 the device runs; a "
                                                "downgrade must be signed with --allow-downgrade.")
    lang.use("de")
    german = [refusals.sentence(key, details.get(key)) for key in keys]
    assert german[keys.index("downgrade")] == ("Das Paket enthält 0.1.0, älter als die 0.2.0 auf dem Gerät; ein "
                                               "Downgrade muss mit --allow-downgrade signiert sein.")
    for key, de, en in zip(keys, german, english):
        assert de != en and english_in(de, "wrong password", "no_such_key") == [], (key, de)
    for part in ("header", "manifest", "signature", "main.py", None):
        assert english_in(refusals.sentence("truncated", part)) == [], part


def test_a_profiles_problems_are_german_and_name_the_field_as_the_profile_does():
    from tafel_host.hardware.check import check
    from tafel_host.hardware.model import load_profiles

    name = "esp32-devkitc-ssd1306"
    original = load_profiles()[name]
    broken = [[], {"python": None}, {"name": "x"}]
    for path in _leaves(original):
        for wrong in (None, "x", 3.5, [], True):
            broken.append((path, wrong))
    for path, pin in [(("keypad", "rows", 1), 6), (("keypad", "rows", 2), 1), (("display", "i2c", "scl"), 34),
                      (("keypad", "cols", 0), 0), (("keypad", "cols", 1), 36), (("encoder", "a"), 16)]:
        broken.append((path, pin))
    said = 0
    for change in broken:
        profile = copy.deepcopy(original)
        if isinstance(change, tuple):
            parent = profile
            for key in change[0][:-1]:
                parent = parent[key]
            parent[change[0][-1]] = change[1]
        elif isinstance(change, dict):
            profile.update(change)
        else:
            profile = change
        lang.use("en")
        english = check(profile, name)
        lang.use("de")
        german = check(profile, name)
        assert len(german) == len(english)
        for de, en in zip(german, english):
            field = en.split(":")[0]
            assert de != en and (" " in field or de.startswith(field + ":")), (de, en)  # the field first, as it is
            assert english_in(de) == [], de
        said += len(german)
    assert said > 50


def _leaves(node, path=()):
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _leaves(value, path + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _leaves(value, path + (i,))
    else:
        yield path


def test_tafel_hardware_check_in_german(capsys):
    code, out, _ = run(capsys, "--lang", "de", "hardware", "check")
    assert code == 0 and "esp32-devkitc-ssd1306: in Ordnung" in out
    code, out, _ = run(capsys, "hardware", "check")
    assert code == 0 and "esp32-devkitc-ssd1306: ok" in out


def test_tafel_calibrate_and_sim_refuse_in_german_with_exit_code_2(capsys, tmp_path):
    code, _, err = run(capsys, "--lang", "de", "calibrate", "--only", "Sommerfest")
    assert code == 2 and err == "tafel calibrate: --only nimmt tour, evening, nicht Sommerfest\n"
    script = tmp_path / "tasten.txt"
    script.write_text("1 2 a warte:5\n", encoding="utf-8")
    code, _, err = run(capsys, "--lang", "de", "sim", "--script", str(script))
    assert code == 2 and "tasten.txt:1:5: unbekanntes Wort 'a'; Tasten werden großgeschrieben: 'A' (möglich: " in err
    assert english_in(err, script, "power-cut", "keys 0-9") == [], err
    code, _, err = run(capsys, "--lang", "de", "sim", "--out", str(tmp_path))
    assert code == 2 and err == "tafel sim: --out gehört zu --script (ohne Anzeige)\n"
    code, _, err = run(capsys, "--lang", "de", "sim", "--script", str(tmp_path / "fehlt.txt"))
    assert code == 2 and err.startswith("tafel sim: kann das Skript ") and "nicht lesen" in err
    code, _, err = run(capsys, "sim", "--out", str(tmp_path))  # and English as before
    assert code == 2 and err == "tafel sim: --out goes with --script (headless mode)\n"


def test_a_headless_sim_run_reports_in_german(capsys, tmp_path):
    script = tmp_path / "abend.txt"
    script.write_text("1 wait:200 snap:start power-cut\n", encoding="utf-8")
    code, out, err = run(capsys, "--lang", "de", "sim", "--script", str(script), "--out", str(tmp_path / "bilder"),
                         "--flash", str(tmp_path / "flash.img"))
    assert code == 0, err
    assert re.match(r"tafel sim: 4 Schritte in [0-9.]+ s, 1 Stromausfall; 1 Schnappschuss in .*bilder: start\n$", out)
    assert err.startswith("tafel sim läuft auf dem ")


# -- bundles, keys, update and flash --

@pytest.fixture(scope="module")
def signed(tmp_path_factory):
    """A key, a trust store that holds it, and a bundle of this checkout signed with it."""
    from tafel_host.app_files import root
    from tafel_host.update import bundle_build, keys

    folder = tmp_path_factory.mktemp("signed")
    store = folder / "trusted.py"
    store.write_text((root() / "firmware" / "update" / "trusted.py").read_text())
    key, _, public = keys.generate(folder / "keys")
    keys.add_to_trust_store(store, public, "test")
    bundle = folder / "tafel.bundle"
    bundle_build.build(bundle, key, "0.5.0", trust_store=store)
    return folder, store, bundle


def test_tafel_bundle_show_in_german_and_its_refusals(signed, tmp_path, capsys):
    _, store, bundle = signed
    code, out, _ = run(capsys, "--lang", "de", "bundle", "show", str(bundle), "--trust-store", str(store))
    assert code == 0 and "Version    0.5.0\n" in out and "Downgrade  abgelehnt\n" in out
    assert "\ngeprüft    Signatur und " in out and english_in(out, bundle) == [], out
    code, out, _ = run(capsys, "--lang", "de", "bundle", "show", str(bundle), "--trust-store", str(store),
                       "--running", "0.9.0")
    assert code == 1 and out.endswith("ABGELEHNT: Das Paket enthält 0.5.0, älter als die 0.9.0 auf dem Gerät; ein "
                                      "Downgrade muss mit --allow-downgrade signiert sein. (downgrade)\n")
    cut = tmp_path / "halb.bundle"
    cut.write_bytes(bundle.read_bytes()[:12])
    code, out, _ = run(capsys, "--lang", "de", "bundle", "show", str(cut), "--trust-store", str(store))
    assert code == 1 and "Manifest   nicht lesbar (die Prüfung unten sagt, warum)" in out
    assert "ABGELEHNT: Das Paket endet zu früh, mitten im Kopf: die Datei ist unvollständig" in out
    assert english_in(out, cut) == [], out
    code, out, _ = run(capsys, "bundle", "show", str(cut), "--trust-store", str(store))  # English, as before
    assert code == 1 and "REFUSED: The bundle ends early, inside its header" in out
    code, _, err = run(capsys, "--lang", "de", "bundle", "build", "--key", str(tmp_path / "fehlt.key"))
    assert code == 2 and err.startswith("tafel: kein Signierschlüssel unter ")


def test_tafel_keygen_in_german(tmp_path, capsys):
    from tafel_host.app_files import root

    store = tmp_path / "trusted.py"
    store.write_text((root() / "firmware" / "update" / "trusted.py").read_text())
    code, out, _ = run(capsys, "--lang", "de", "keygen", "--out", str(tmp_path / "k"), "--trust-store", str(store))
    assert code == 0 and out.startswith("privater Schlüssel     ") and "\nvertraut in            " in out
    code, _, err = run(capsys, "--lang", "de", "keygen", "--out", str(tmp_path / "k"), "--trust-store", str(store))
    assert code == 2 and "signing.key gibt es schon; --force ersetzt es" in err


def test_tafel_update_refuses_a_cut_bundle_in_german_before_any_device(signed, tmp_path, capsys, data_home):
    _, _, bundle = signed
    cut = tmp_path / "halb.bundle"
    cut.write_bytes(bundle.read_bytes()[:3000])
    code, _, err = run(capsys, "--lang", "de", "update", str(cut), "--port", str(tmp_path / "kein-port"))
    assert code == 2 and "Das Paket endet zu früh, mitten im Manifest" in err and "Sie hat 3.000 Bytes" in err
    empty = tmp_path / "leer.bundle"
    empty.write_bytes(b"")
    code, _, err = run(capsys, "--lang", "de", "update", str(empty))
    assert code == 2 and "Das ist kein Tafel-Update-Paket (es beginnt nicht mit TAFELUPD). Die Datei ist leer." in err
    code, _, err = run(capsys, "update", str(cut), "--port", str(tmp_path / "kein-port"))
    assert code == 2 and "The bundle ends early, inside its manifest" in err and "It has 3,000 bytes" in err


def test_tafel_flash_errors_in_german_keep_their_exit_codes(signed, tmp_path, capsys, data_home, monkeypatch):
    _, store, bundle = signed
    given = ["flash", "--bundle", str(bundle), "--trust-store", str(store)]
    code, _, err = run(capsys, "--lang", "de", *given)
    assert code == 2 and err.startswith("tafel flash: --firmware IMAGE.bin wird gebraucht (MicroPython für esp32")
    elf = tmp_path / "firmware.elf"
    elf.write_bytes(b"\x7fELF" + bytes(60))
    code, _, err = run(capsys, "--lang", "de", *given, "--firmware", str(elf))
    assert code == 2 and "ist kein ESP32-Firmware-Image" in err
    monkeypatch.setattr("tafel_host.link.ports.comports", lambda: [])  # no board plugged in
    code, out, err = run(capsys, "--lang", "de", *given, "--skip-esptool")
    assert code == 3 and out.startswith("Paket %s: Version 0.5.0, " % bundle)
    assert err.startswith("tafel flash: keine Tafel gefunden") and english_in(out + err, bundle, store) == [], err
    code, _, err = run(capsys, "--lang", "de", *given, "--skip-esptool", "--port", str(tmp_path / "kein-port"))
    assert code == 3 and "kein-port lässt sich nicht öffnen" in err
    tampered = tmp_path / "verändert.bundle"
    data = bytearray(bundle.read_bytes())
    data[-1] ^= 1
    tampered.write_bytes(bytes(data))
    code, _, err = run(capsys, "--lang", "de", "flash", "--skip-esptool", "--bundle", str(tampered),
                       "--trust-store", str(store))
    assert code == 2 and "tafel flash: das Paket wird abgelehnt: Die Datei " in err and "(bad_file)" in err
    code, out, _ = run(capsys, "--lang", "de", *given, "--skip-esptool", "--dry-run")
    assert code == 0 and "# 2. Tafel 0.5.0 (mpremote; auf einer Platine ohne Tafel-App: Platz a;" in out
    code, _, err = run(capsys, *given, "--skip-esptool")  # English by default
    assert code == 3 and err.startswith("tafel flash: no Tafel found")


# -- tafel rescue --

def test_tafel_rescue_reports_in_german_and_writes_the_same_export(tmp_path, capsys):
    import json
    import subprocess
    from pathlib import Path

    from tafel_host.rescue import lfs
    from tafel_host.rescue.frames import scan
    from tafel_host.sim.launcher import find_micropython

    root = Path(__file__).resolve().parents[2]
    made = subprocess.run([str(find_micropython()), "-X", "heapsize=8M", str(root / "tests" / "host" / "mpy_rescue_image.py"),
                           str(root), "build", str(tmp_path / "abend.img")], capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    stored = json.loads(made.stdout.strip().splitlines()[-1])
    image = bytearray((tmp_path / "abend.img").read_bytes())
    running = [bytes.fromhex(h) for h in stored["games"][str(stored["running"])]]
    size = lfs.BLOCK_SIZE
    for b in range(len(image) // size):  # record 30 of the running game gone, and the root's two blocks
        if b < 2 or any(f.seq == 30 and f.payload == running[30] for f in scan(bytes(image[b * size:(b + 1) * size]))):
            image[b * size:(b + 1) * size] = b"\xff" * size
    damaged = tmp_path / "kaputt.img"
    damaged.write_bytes(bytes(image))
    code, out, _ = run(capsys, "--lang", "de", "rescue", "--image", str(damaged), "--report", "-o", str(tmp_path / "de.json"))
    assert code == 1
    assert out.startswith("Dateisystem: die Wurzel (Blöcke 0 und 1) ist NICHT lesbar: das Gerät kann diesen Flash "
                          "nicht einhängen; 2 Ordner ohne sie gefunden\n")
    assert "  UNVOLLSTÄNDIG: die Aufzeichnungen 30 bis " in out and "Ergebnis: 3 Spiele gefunden, 2 vollständig " in out
    assert "sein letzter Block (" in out  # what the rescue found, said in German too
    prose = re.sub(r"(?m)^  /\S*  .*$", "", out)  # the folders' listing: names as the flash holds them
    assert english_in(prose, tmp_path, "set_aside", "create", "unreadable", "foreign") == [], out
    code, out, _ = run(capsys, "rescue", "--image", str(damaged), "--report", "-o", str(tmp_path / "en.json"))
    assert code == 1 and "  INCOMPLETE: records 30 to " in out and "result: 3 games found, 2 rebuilt whole" in out
    german, english = (json.loads((tmp_path / name).read_text()) for name in ("de.json", "en.json"))
    german.pop("exported"), english.pop("exported")
    assert german == english  # the export is data: English in either language, as tafel export's
    code, _, err = run(capsys, "--lang", "de", "rescue", "--image", str(tmp_path / "abend.img") + "x")
    assert code == 2 and err.startswith("tafel rescue: ")
    (tmp_path / "klein.img").write_bytes(bytes(5000))
    code, _, err = run(capsys, "--lang", "de", "rescue", "--image", str(tmp_path / "klein.img"))
    assert code == 2 and "hat 5000 Bytes und ist kein Tafel-Flash-Abbild" in err


def test_a_device_in_recovery_mode_is_described_in_german(capsys, monkeypatch):
    from tafel_host.rescue import link as rescue_link

    class Recovering:
        hello = {"id": "a1b2c3", "fw": "0.5.0", "proto": 3}

        def request(self, kind, body=b""):
            return None

    info = {"firmware": "0.5.0", "why": "unmountable", "games": 1, "blocks": 512, "block_size": 4096,
            "read_done": False}
    monkeypatch.setattr(rescue_link.wire, "parse_recovery_info", lambda body: info)  # INFO as recovery mode gives it
    lang.use("de")
    assert rescue_link.print_recovery_info(Recovering()) == 0
    assert capsys.readouterr().out.splitlines() == [
        "Gerät    a1b2c3 (Firmware 0.5.0, Protokoll 3)",
        "Wiederherstellungsmodus: sein Dateisystem hängt nicht ein, dabei hält der rohe Flash 1 Spiel",
        "Flash    512 Blöcke zu 4096 Bytes; seit dem Einschalten von keinem Laptop gelesen",
        "Rettung  tafel rescue --port PORT liest ihn und baut die Spiele neu auf; danach am Gerät formatieren (C, #)"]


def test_a_phrase_is_english_text_said_later_in_the_language_spoken():
    import json

    lang.use("de")  # made while German is spoken: still English as a text (what a file keeps)
    stop = lang.Phrase("rs_missing", 30, 39)
    label = lang.Phrase("rs_raw_scan", lang.Phrase("rs_block_offset", "7+8", 12))
    conflict = lang.Phrase("rs_differs", 5, ["a.tj", label], label, ["a.tj", label])
    assert stop == "records 30 to 39 are missing" and json.dumps([stop]) == '["records 30 to 39 are missing"]'
    assert conflict == ("record 5 differs between a.tj, raw scan, block 7+8 offset 12 and raw scan, block 7+8 "
                        "offset 12: kept a.tj, raw scan, block 7+8 offset 12")
    assert lang.tell(stop) == "die Aufzeichnungen 30 bis 39 fehlen"
    assert lang.tell(conflict).startswith("Aufzeichnung 5 unterscheidet sich zwischen a.tj, Rohsuche, Block 7+8")
    assert lang.tell("as it is") == "as it is" and lang.tell(7) == 7
    assert lang.grouped(12425) == "12.425"
    lang.use("en")
    assert lang.tell(stop) == stop and lang.grouped(12425) == "12,425"
