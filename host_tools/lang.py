# The laptop's language: chosen once per command (--lang, TAFEL_LANG, the locale), and its texts.
#
#   lang.use(lang.choose(args.lang))    # host_tools/cli.py, before a command runs
#   lang.say("wrote", path)             # the current language's text for a key, %-formatted
#   lang.count(3, "game")               # "3 games" / "3 Spiele": singular or plural by number
#
# The texts are in texts_en.py and texts_de.py (the history, info, export and the link), in
# texts_en_tools.py and texts_de_tools.py (the port search, card names and the device tools) and
# in texts_en_club.py and texts_de_club.py (tafel club): one catalogue per language, both with the
# same keys (tests/host/test_laptop_language.py checks that they match, placeholders included, and
# that no key is in two files of a language).
import os

from . import texts_de, texts_de_club, texts_de_tools, texts_en, texts_en_club, texts_en_tools

LANGS = ("de", "en")
ENV = "TAFEL_LANG"
_TEXTS = {"de": dict(texts_de.TEXTS, **texts_de_tools.TEXTS, **texts_de_club.TEXTS),
          "en": dict(texts_en.TEXTS, **texts_en_tools.TEXTS, **texts_en_club.TEXTS)}
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


def count(n, key):
    """'1 game' / '2 games' ('1 Spiel' / '2 Spiele'): the key's (singular, plural) pair."""
    one, many = _TEXTS[_current[0]][key]
    return "%d %s" % (n, one if n == 1 else many)


def number(value, places=1):
    """A decimal number as the language writes it: 48.9 / 48,9."""
    out = "%.*f" % (places, value)
    return out.replace(".", ",") if _current[0] == "de" else out
