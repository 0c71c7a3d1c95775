# Every `tafel ... --help` in German (texts_*_help.py) and argparse's own words (argparse_de.py), chosen by --lang or
# TAFEL_LANG before the parser is built; English stays the default, and argparse's errors keep exit code 2.
import argparse
import ast
import re

import pytest

from tafel_host import argparse_de, lang
from tafel_host.cli import main

# Every command and action, as `tafel ... --help` takes them.
COMMANDS = [[], ["points"], ["history"], ["history", "import"], ["chart"], ["report"], ["info"], ["export"],
            ["roster"], ["roster", "push"], ["roster", "pull"], ["roster", "clear"], ["clock"], ["rules"],
            ["rules", "play"], ["rules", "challenge"], ["update"], ["serve-update"], ["keygen"], ["bundle"],
            ["bundle", "build"], ["bundle", "show"], ["flash"], ["rescue"], ["sim"], ["hardware"],
            ["hardware", "check"], ["hardware", "docs"], ["calibrate"], ["club"], ["club", "serve"],
            ["club", "round"], ["club", "pair"], ["club", "unpair"]]

# English words no German help text holds (commands, option names, metavars and file names are taken out first)
ENGLISH = {"the", "and", "of", "with", "from", "default", "file", "files", "device", "devices", "game", "games",
           "show", "this", "help", "message", "exit", "usage", "options", "positional", "arguments", "print",
           "every", "each", "when", "where", "else", "not", "or", "to", "is", "its", "by", "on", "into",
           "key", "keys", "signed", "bundle", "board", "image", "flash", "write", "read", "install", "run", "port",
           "line", "names", "check", "only", "also", "than", "serial", "which", "what"}
ALLOWED = {"Flash", "Update", "Port", "Image", "Exit"}  # the German catalogues' own loanwords (texts_de.py: "der Flash")


@pytest.fixture(autouse=True)
def wide(monkeypatch):
    """Help on a wide terminal: argparse wraps its lines at $COLUMNS, and a phrase looked for stays on one."""
    monkeypatch.setenv("COLUMNS", "250")


def run(capsys, *argv):
    """(exit code, standard output, standard error) of `tafel argv...`; --help and argparse's errors exit."""
    try:
        code = main(list(argv))
    except SystemExit as done:
        code = done.code
    out, err = capsys.readouterr()
    return code, out, err


def prose(text):
    """The words of a help text that are prose: no usage lines, option names, metavars, paths or commands."""
    choices = {word for group in re.findall(r"\{([^}]*)\}", text) for word in group.split(",")}  # {wall,unset}
    text = re.sub(r"(?ms)^(Aufruf|usage): .*?(?=^\S|\Z)", "", text)
    text = re.sub(r"(?m)^ {2,}[a-z][a-z-]*(?= {2,}|$)", " ", text)  # the commands and actions listed
    text = re.sub(r"`[^`]*`|\{[^}]*\}|\$\w+|--?[a-z][a-z-]*|\S*[/.<>_*$=]\S*|tafel( [a-z-]+){1,2}", " ", text)
    text = re.sub(r"\b[A-ZÄÖÜ][A-ZÄÖÜ0-9_|]+\b", " ", text)  # metavars, abbreviations (JSON, USB)
    return [word for word in re.findall(r"[A-Za-zÄÖÜäöüß]+", text) if word not in choices]


# -- every --help, and argparse's own words --

def test_the_list_holds_every_command_and_action_the_parser_has():
    from tafel_host.cli import build_parser

    def walk(parser, path):
        yield path
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    yield from walk(sub, path + [name])

    assert sorted(walk(build_parser(), [])) == sorted(COMMANDS)


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c) or "tafel")
def test_every_help_is_german_with_lang_de_and_english_by_default(command, capsys, monkeypatch):
    code, out, _ = run(capsys, "--lang", "de", *command, "--help")
    assert code == 0 and out.startswith("Aufruf: tafel") and "\nOptionen:\n" in out
    assert "diese Hilfe zeigen und beenden" in out
    assert [w for w in prose(out) if w.lower() in ENGLISH and w not in ALLOWED] == [], out
    code, out, _ = run(capsys, *command, "--help")
    assert code == 0 and out.startswith("usage: tafel") and "show this help message and exit" in out
    monkeypatch.setenv("TAFEL_LANG", "de")  # the environment chooses it as the flag does
    code, out, _ = run(capsys, *command, "--help")
    assert code == 0 and out.startswith("Aufruf: tafel")


def test_tafel_bundle_and_rescue_help_in_german(capsys, monkeypatch):
    code, out, _ = run(capsys, "--lang", "de", "bundle", "--help")
    assert code == 0 and "Signierte Update-Pakete" in out and "das Manifest eines Pakets zeigen und es prüfen" in out
    monkeypatch.setenv("TAFEL_LANG", "de")
    code, out, _ = run(capsys, "rescue", "--help")
    assert code == 0 and "Jedes Spiel aus einem rohen Abbild des Flashs" in out
    assert "--image DATEI" in out and "das rohe Flash-Abbild (2.097.152 Bytes bei einem 4-MB-Chip)" in out
    code, out, _ = run(capsys, "rescue", "--help", "--lang", "en")  # the flag after the command, over the variable
    assert code == 0 and "Rebuild every game from a raw image" in out and "--image FILE" in out


def test_argparse_errors_are_german_and_keep_exit_code_2(capsys):
    code, _, err = run(capsys, "--lang", "de", "bundle")
    assert code == 2 and err.endswith("tafel bundle: Fehler: diese Argumente fehlen: AKTION\n")
    code, _, err = run(capsys, "--lang", "de", "sim", "--baud", "schnell")
    assert code == 2 and "tafel sim: Fehler: Argument --baud: ungültiger Wert (int): 'schnell'" in err
    code, _, err = run(capsys, "--lang", "de", "flash", "--board")
    assert code == 2 and "Argument --board: ein Wert fehlt" in err
    code, _, err = run(capsys, "--lang", "de", "rescue", "--image", "a", "--port", "b")
    assert code == 2 and "Argument --port: nicht zusammen mit Argument --image erlaubt" in err
    code, _, err = run(capsys, "--lang", "de", "zaubern")
    assert code == 2 and "ungültige Wahl: 'zaubern' (möglich: " in err
    code, _, err = run(capsys, "--lang", "de", "points", "7", "--gibts-nicht")
    assert code == 2 and "tafel: Fehler: unbekannte Argumente: --gibts-nicht" in err
    code, _, err = run(capsys, "bundle")  # and in English, as argparse says it
    assert code == 2 and err.endswith("tafel bundle: error: the following arguments are required: ACTION\n")


def _argparse_messages():
    # the messages argparse of this Python passes to _() and ngettext()
    tree = ast.parse(open(argparse.__file__, encoding="utf-8").read())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("_", "ngettext"):
            texts = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if texts:
                found.add(texts[0] if node.func.id == "_" else tuple(texts[:2]))
    return found


def test_argparse_de_translates_messages_argparse_says_and_nothing_while_english():
    said = _argparse_messages()
    assert set(argparse_de.GERMAN) <= said and set(argparse_de.GERMAN_PLURAL) <= said
    for english, german in argparse_de.GERMAN.items():  # the same placeholders
        assert re.findall(r"%(?:\([a-z_]+\))?[a-z]", english) == re.findall(r"%(?:\([a-z_]+\))?[a-z]", german)
    lang.use("en")
    assert argparse_de.translate("options") == "options"
    assert argparse_de.translate_plural("expected %s argument", "expected %s arguments", 2) == "expected %s arguments"
    lang.use("de")
    assert argparse_de.translate("options") == "Optionen"
    assert argparse_de.translate("a message it does not know") == "a message it does not know"
    assert argparse_de.translate_plural("expected %s argument", "expected %s arguments", 1) == "%s Wert erwartet"
