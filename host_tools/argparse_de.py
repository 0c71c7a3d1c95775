# argparse's own words in German ("usage:", "options", its error messages), when the laptop speaks German.
#
#   argparse_de.install()     # host_tools/cli.py, once, before the parser is built
#
# argparse says its words through gettext: it calls `_` and `ngettext`, names it imported from
# gettext into its own module, at the moment it needs the text (a group's title when the parser is
# built, "usage: " when help is printed, an error when the line is read). install() puts two small
# functions in their place that look the English message up in GERMAN while lang.current() is
# "de", and otherwise answer as gettext does (the message itself, or gettext's own translation
# if the system has one). A message not in GERMAN stays English: the keys are argparse's own
# messages of Python 3.11 to 3.13, those a user of `tafel` can meet (not the ones that only a
# wrongly built parser raises). Placeholders stay as argparse fills them.
import argparse
import gettext

from . import lang

GERMAN = {
    "usage: ": "Aufruf: ",
    "positional arguments": "Argumente",
    "options": "Optionen",
    "show this help message and exit": "diese Hilfe zeigen und beenden",
    "%(prog)s: error: %(message)s\n": "%(prog)s: Fehler: %(message)s\n",
    "argument %(argument_name)s: %(message)s": "Argument %(argument_name)s: %(message)s",
    "the following arguments are required: %s": "diese Argumente fehlen: %s",
    "one of the arguments %s is required": "eines der Argumente %s ist nötig",
    "unrecognized arguments: %s": "unbekannte Argumente: %s",
    "not allowed with argument %s": "nicht zusammen mit Argument %s erlaubt",
    "ignored explicit argument %r": "Wert %r ist hier nicht erlaubt",
    "expected one argument": "ein Wert fehlt",
    "expected at most one argument": "höchstens ein Wert erlaubt",
    "expected at least one argument": "mindestens ein Wert fehlt",
    "invalid choice: %(value)r (choose from %(choices)s)": "ungültige Wahl: %(value)r (möglich: %(choices)s)",
    "invalid %(type)s value: %(value)r": "ungültiger Wert (%(type)s): %(value)r",
    "ambiguous option: %(option)s could match %(matches)s": "mehrdeutige Option: %(option)s passt zu %(matches)s",
    "unknown parser %(parser_name)r (choices: %(choices)s)": "unbekannter Befehl %(parser_name)r (möglich: %(choices)s)",
    "can't open '%(filename)s': %(error)s": "'%(filename)s' lässt sich nicht öffnen: %(error)s",
    "unexpected option string: %s": "unerwartete Option: %s",
}
# ngettext's messages: (singular, plural) -> (German singular, German plural)
GERMAN_PLURAL = {
    ("expected %s argument", "expected %s arguments"): ("%s Wert erwartet", "%s Werte erwartet"),
}

_gettext, _ngettext = gettext.gettext, gettext.ngettext


def translate(message):
    """argparse's `_`: the German text of `message` while the laptop speaks German, else gettext's."""
    if lang.current() == "de" and message in GERMAN:
        return GERMAN[message]
    return _gettext(message)


def translate_plural(singular, plural, n):
    """argparse's `ngettext`, as translate() for a message that has a plural."""
    german = GERMAN_PLURAL.get((singular, plural)) if lang.current() == "de" else None
    if german is not None:
        return german[0] if n == 1 else german[1]
    return _ngettext(singular, plural, n)


def install():
    """argparse speaks through translate() and translate_plural() from now on (in this process)."""
    argparse._ = translate
    argparse.ngettext = translate_plural
