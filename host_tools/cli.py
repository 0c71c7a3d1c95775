# The `tafel` command line: entry point for the laptop tools.
import argparse
import sys

from tafel.cards import card_points, hand_points
from tafel.errors import CardError

from . import __version__, argparse_de, lang, rules_cli
from .club import cli as club_cli
from .club import pair_cli
from .exits import Exit
from .hardware import calibrate
from .hardware import cli as hardware_cli
from .history import cli as history_cli
from .link import cli as link_cli
from .link import roster_cli
from .rescue import cli as rescue_cli
from .sim import launcher as sim_launcher
from .update import bundle_cli, keys
from .update import client as update_client
from .update import flash as flash_cli
from .update import serve as serve_update


def _parse_values(pairs):
    # "--value wild=40 --value 7=10" -> {"wild": 40, "7": 10}; value_table checks the words.
    values = {}
    for pair in pairs:
        rank, sep, points = pair.rpartition("=")
        if not sep or not rank.strip():
            raise CardError(lang.say("value_form", pair))
        try:
            values[rank.strip()] = int(points)
        except ValueError:
            raise CardError(lang.say("value_points", rank.strip(), points)) from None
    return values or None


def card_error(err):
    """A card's error in the laptop's language: the core's English message said again by its code
    (tafel.errors.CardError: code and words; texts_*_tools.py: "card_" + code); else as it is."""
    code = getattr(err, "code", None)
    if code is None:
        return str(err)
    try:
        return lang.say("card_" + code, *err.words)
    except KeyError:
        return str(err)


def points(args):
    """Print the points of each card and of the whole hand."""
    values = _parse_values(args.value)
    cards = [card.strip() for card in args.cards]
    rows = [(card, card_points(card, values)) for card in cards]
    total = hand_points(cards, values)
    word = lang.say("total")
    width = max(len(word), *(len(card) for card in cards))
    for card, value in rows:
        print("%-*s %4d" % (width, card, value))
    print("%-*s %4d" % (width, word, total))
    return Exit.OK


def build_parser():
    """Every command's parser, its help in the current language (main() chooses it first)."""
    say = lang.say
    parser = argparse.ArgumentParser(prog="tafel", description=say("hp_tafel"))
    parser.add_argument("--version", action="version", version="tafel " + __version__, help=say("hp_version"))
    _lang_option(parser, True)
    commands = parser.add_subparsers(dest="command", required=True, metavar=say("m_command"))
    cmd = commands.add_parser("points", help=say("hp_points"), description=say("hp_points_d"))
    cmd.add_argument("cards", nargs="+", metavar=say("m_card"), help=say("hp_points_cards"))
    cmd.add_argument("--value", action="append", default=[], metavar=say("m_rank_points"),
                     help=say("hp_points_value"))
    cmd.set_defaults(run=points)
    sim_launcher.add_parser(commands)
    hardware_cli.add_parser(commands)
    link_cli.add_parsers(commands)
    roster_cli.add_parsers(commands)
    history_cli.add_parsers(commands)
    pair_cli.add_parsers(club_cli.add_parsers(commands))  # tafel club serve; pair and unpair beside it
    keys.add_parser(commands)
    bundle_cli.add_parser(commands)
    update_client.add_parser(commands)
    serve_update.add_parser(commands)
    flash_cli.add_parser(commands)
    rescue_cli.add_parser(commands)
    rules_cli.add_parser(commands)
    calibrate.add_parser(commands)
    _everywhere(parser)
    return parser


def _lang_option(parser, top):
    # Before the command or anywhere after it; an inner one must not reset the outer.
    parser.add_argument("--lang", choices=lang.LANGS, default=None if top else argparse.SUPPRESS,
                        help=lang.say("hp_lang", lang.ENV))


def _everywhere(parser):
    # --lang on every command and action as well, so `tafel history --lang de` works as
    # `tafel --lang de history` does.
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in set(action.choices.values()):
                if not any("--lang" in a.option_strings for a in sub._actions):
                    _lang_option(sub, False)
                _everywhere(sub)


def main(argv=None):
    # The language before the parser is built: its help texts and argparse's own words
    # (argparse_de.py) are taken in it, and its errors are said in it.
    argparse_de.install()
    lang.use(lang.choose(_lang_flag(argv)))
    args = build_parser().parse_args(argv)
    lang.use(lang.choose(args.lang))
    try:
        return args.run(args)
    except CardError as err:
        print("tafel: %s" % card_error(err), file=sys.stderr)
        return Exit.USAGE
    except KeyboardInterrupt:
        print("tafel: %s" % lang.say("interrupted"), file=sys.stderr)
        return Exit.INTERRUPTED
    except BrokenPipeError:
        return _pipe_closed()


def _lang_flag(argv):
    # --lang as given, before argparse has read the line (the help texts are built before)
    argv = sys.argv[1:] if argv is None else argv
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg.startswith("--lang="):
            return arg[7:]
        if arg == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
    return None


def _pipe_closed():
    """Standard output's reader went away (`tafel history | head`): stop quietly, as CLI tools do.
    Standard output goes to /dev/null so that Python's flush at exit does not complain again."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no file descriptor (a test's captured stdout)
        pass
    return Exit.PIPE_CLOSED


if __name__ == "__main__":
    sys.exit(main())
