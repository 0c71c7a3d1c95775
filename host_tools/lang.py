# The laptop's language: chosen once per command (--lang, TAFEL_LANG, the locale), and its texts.
#
#   lang.use(lang.choose(args.lang))    # host_tools/cli.py, before a command runs
#   lang.say("wrote", path)             # the current language's text for a key, %-formatted
#   lang.count(3, "game")               # "3 games" / "3 Spiele": singular or plural by number
#   lang.tell(lang.Phrase("key", 7))    # a text made now, said later in the language spoken then
#
# The texts are catalogues, one English and one German file each (CATALOGUES): texts_en.py and
# texts_de.py (the history, info, export and the link), texts_*_tools.py (the port search, card
# names, roster, clock, update), texts_*_help.py (every command's --help), texts_*_update.py
# (bundles, keys, the device's refusals, serve-update), texts_*_flash.py (flash), texts_*_rescue.py
# (rescue), texts_*_board.py (hardware, calibrate, sim), texts_*_club.py (tafel club) and
# texts_*_pair.py (tafel club pair and unpair). Both files of a pair have the same keys, and no key is in two files
# of a language (tests/host/test_laptop_language.py checks both, placeholders included).
# argparse's own words ("usage:", its errors) are argparse_de.py's.
import os

from . import (
    texts_de,
    texts_de_board,
    texts_de_club,
    texts_de_flash,
    texts_de_help,
    texts_de_pair,
    texts_de_rescue,
    texts_de_tools,
    texts_de_update,
    texts_en,
    texts_en_board,
    texts_en_club,
    texts_en_flash,
    texts_en_help,
    texts_en_pair,
    texts_en_rescue,
    texts_en_tools,
    texts_en_update,
)

# (English, German): the catalogues, each pair with the same keys
CATALOGUES = ((texts_en, texts_de), (texts_en_tools, texts_de_tools), (texts_en_help, texts_de_help),
              (texts_en_update, texts_de_update), (texts_en_flash, texts_de_flash),
              (texts_en_rescue, texts_de_rescue), (texts_en_board, texts_de_board), (texts_en_club, texts_de_club),
              (texts_en_pair, texts_de_pair))
LANGS = ("de", "en")
ENV = "TAFEL_LANG"
_TEXTS = {"en": {}, "de": {}}
for _en, _de in CATALOGUES:
    _TEXTS["en"].update(_en.TEXTS)
    _TEXTS["de"].update(_de.TEXTS)
_current = ["en"]


def _of(value):
    # "de", "de_DE.UTF-8", "de-AT", "German" -> "de"; anything else -> "en"
    return "de" if value.strip().lower().startswith(("de", "german")) else "en"


def choose(flag=None, environ=None):
    """The language for this command: --lang, else TAFEL_LANG, else the locale's messages
    (LC_ALL, LC_MESSAGES, LANG: the first that is set; German for de*), else English."""
    env = os.environ if environ is None else environ
    if flag:
        return _of(flag)
    for name in (ENV, "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value.strip():
            return _of(value)
    return "en"


def use(lang):
    _current[0] = lang if lang in LANGS else "en"


def current():
    return _current[0]


def text(key, lang=None):
    """The text of `key` in `lang` (default: the current language), unformatted."""
    return _TEXTS[lang or _current[0]][key]


def say(key, *args):
    """The text of `key` in the current language, formatted with `args` if any."""
    template = _TEXTS[_current[0]][key]
    return template % args if args else template


class Phrase(str):
    """A text to be said later, in whichever language is spoken then: Phrase("rs_stop", 7).
    It is the English text itself (a str: what a file such as a rescue's export keeps, as the
    export's own texts are English), and keeps its key and arguments, which tell() says in the
    current language. Arguments may be Phrases and lists of values (said joined by ", ")."""

    def __new__(cls, key, *args):
        self = str.__new__(cls, _render("en", key, args))
        self.key, self.args = key, args
        return self


def tell(value):
    """A Phrase in the current language; anything else as it is."""
    return _told(_current[0], value) if isinstance(value, Phrase) else value


def _told(lang, value):
    if isinstance(value, Phrase):
        return _render(lang, value.key, value.args)
    if isinstance(value, list):
        return ", ".join(str(_told(lang, v)) for v in value)
    return value


def _render(lang, key, args):
    template = _TEXTS[lang][key]
    return template % tuple(_told(lang, a) for a in args) if args else template


def count(n, key):
    """'1 game' / '2 games' ('1 Spiel' / '2 Spiele'): the key's (singular, plural) pair."""
    one, many = _TEXTS[_current[0]][key]
    return "%d %s" % (n, one if n == 1 else many)


def grouped(value):
    """A whole number with its thousands marked as the language marks them: 12,425 / 12.425."""
    out = "{:,}".format(value)
    return out.replace(",", ".") if _current[0] == "de" else out


def number(value, places=1):
    """A decimal number as the language writes it: 48.9 / 48,9."""
    out = "%.*f" % (places, value)
    return out.replace(".", ",") if _current[0] == "de" else out
