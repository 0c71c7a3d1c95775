# `tafel rules`: the rulebook on the laptop, which cards of a hand may be played, and +4 challenge verdicts.
#
#   tafel rules [--section values|cards|challenge|two|uno|scoring|dealing|teams]
#                                                        # the rulebook (the device's texts)
#   tafel rules play "red 6" --hand "red 3" "blue 6" "blue 3" wild      # what may go on the top card, and why
#   tafel rules play wild --colour blue --hand "red 3" "blue 6"         # a black top: the colour chosen with it
#   tafel rules challenge red --hand "red 3" "blue 6" +4                # a +4 challenge: the colour in play
#   tafel rules challenge "red 6" --hand "green 3" "blue 6" +4          # ... or the card the +4 was played on
#
# The verdicts are the core referee's (tafel.referee), the texts the rulebook's
# (tafel.rulebook), as on the device, in the laptop's language (host_tools/lang.py: --lang,
# TAFEL_LANG, the locale; --lang also after `rules` or its action). Card names in German or English, any case.
# Exit codes: 0 ok, 2 bad input (an unknown card or colour, a black top without its colour).
import shutil

from tafel import rulebook
from tafel.cards import COLOURS, FIRST_BLACK, colour_code, parse_card
from tafel.errors import CardError
from tafel.referee import judge_wild4, legal_plays

from . import lang as laptop
from .exits import Exit

# What the laptop says around the rulebook's texts.
_SAY = {
    "en": {
        "on": "On %s (%s):", "in_play": "%s in play", "no_colour": "no colour chosen yet",
        "yes": "may be played", "no": "may not",
        "colour": "same colour", "number": "same number", "symbol": "same symbol", "wild": "fits any card",
        "any": "any card fits while no colour is chosen",
        "w4_ok": "no %s card in the hand", "w4_no": "the hand holds %s, and %s is in play",
        "neither": "neither %s nor %s", "not": "not %s",
        "allowed": "May be played: %s", "nothing": "none, draw a card",
        "c_colour": "Colour in play before the +4: %s", "c_hand": "Hand before the +4: %s",
        "c_held": "The hand held %s: %s.", "c_none": "No %s card in that hand.",
        "c_black": "'%s' is a black card: say which colour was chosen with it, e.g. --colour red",
        "try": "Judge a challenge: tafel rules challenge COLOUR --hand CARD ...",
    },
    "de": {
        "on": "Auf %s (%s):", "in_play": "es gilt %s", "no_colour": "noch keine Farbe gewählt",
        "yes": "erlaubt", "no": "nicht erlaubt",
        "colour": "gleiche Farbe", "number": "gleiche Zahl", "symbol": "gleiches Symbol", "wild": "passt immer",
        "any": "ohne gewählte Farbe passt jede Karte",
        "w4_ok": "keine Karte in %s auf der Hand", "w4_no": "die Hand hat %s, und es gilt %s",
        "neither": "weder %s noch %s", "not": "nicht %s",
        "allowed": "Erlaubt: %s", "nothing": "keine, eine Karte ziehen",
        "c_colour": "Farbe vor der +4: %s", "c_hand": "Hand vor der +4: %s",
        "c_held": "Die Hand hatte %s: %s.", "c_none": "Keine Karte in %s auf dieser Hand.",
        "c_black": "'%s' ist schwarz: welche Farbe wurde dazu gewählt? z.B. --colour rot",
        "try": "Einen Zweifel beurteilen: tafel rules challenge FARBE --hand KARTE ...",
    },
}
_MENU_OF = (0, 1, 2, 4, 5, 6, 7, 8)  # each section's heading in the rulebook's MENU (3: the device's bluff check)


def add_parser(commands):
    say = laptop.say
    cmd = commands.add_parser("rules", help=say("hp_rules"), description=say("hp_rules_d"))
    cmd.add_argument("--section", choices=rulebook.SECTIONS, help=say("hp_rules_section"))
    cmd.set_defaults(run=run_book)
    sub = cmd.add_subparsers(dest="action", metavar=say("m_action"))
    play = sub.add_parser("play", help=say("hp_play"), description=say("hp_play_d"))
    play.add_argument("top", metavar=say("m_top"), help=say("hp_play_top"))
    play.add_argument("--hand", nargs="+", required=True, metavar=say("m_card"), help=say("hp_play_hand"))
    play.add_argument("--colour", "--color", dest="colour", metavar=say("m_colour"), help=say("hp_play_colour"))
    play.set_defaults(run=run_play)
    chal = sub.add_parser("challenge", help=say("hp_challenge"), description=say("hp_challenge_d"))
    chal.add_argument("in_play", metavar=say("m_colour_or_card"), help=say("hp_challenge_in_play"))
    chal.add_argument("--hand", nargs="+", required=True, metavar=say("m_card"), help=say("hp_challenge_hand"))
    chal.add_argument("--colour", "--color", dest="colour", metavar=say("m_colour"),
                      help=say("hp_challenge_colour"))
    chal.set_defaults(run=run_challenge)


def _lang():
    # The rulebook's language is the laptop's (cli.py chose it); both know de and en.
    return laptop.current() if laptop.current() in rulebook.LANGS else "en"


def _width():
    return max(40, min(78, shutil.get_terminal_size((78, 24)).columns))


def run_book(args):
    lang = _lang()
    book = rulebook.book(lang)
    width = _width()
    names = (args.section,) if args.section else rulebook.SECTIONS
    for name in names:
        i = rulebook.SECTIONS.index(name)
        heading = book.MENU[_MENU_OF[i]]
        print(heading)
        print("-" * len(heading))
        text = rulebook.section(lang, name)[1]
        if name == "values":
            for label, points in rulebook.value_lines(lang):
                print("  " + rulebook.pair(label, points, 28))
            print()
        for line in rulebook.wrap(text, width):
            print(line)
        if name == "challenge":
            print()
            print(_SAY[lang]["try"])
        if name != names[-1]:
            print()
    return Exit.OK


def _card_name(book, colour, rank):
    name = str(rank) if rank < 10 else book.NAMES[rank - 10]
    return name if colour is None else "%s %s" % (book.COLOURS[colour], name)


def _reason(say, book, card, active, top_rank, hand):
    # Why a card may or may not go on the top card; the verdict itself is legal_plays'.
    colour, rank = card
    top_black = top_rank >= FIRST_BLACK
    if rank == 14:
        if active is None:
            return say["any"]
        for held in hand:
            if held[0] == active:
                return say["w4_no"] % (_card_name(book, *held), book.COLOURS[active])
        return say["w4_ok"] % book.COLOURS[active]
    if rank >= FIRST_BLACK:
        return say["wild"]
    if active is None:
        return say["any"]
    if colour == active:
        return say["colour"]
    if not top_black and rank == top_rank:
        return say["number"] if rank < 10 else say["symbol"]
    if top_black:
        return say["not"] % book.COLOURS[active]
    return say["neither"] % (book.COLOURS[active], _card_name(book, None, top_rank))


def run_play(args):
    lang = _lang()
    say, book = _SAY[lang], rulebook.book(lang)
    hand = [card.strip() for card in args.hand]
    allowed = legal_plays(args.top, hand, args.colour)
    top_colour, top_rank = parse_card(args.top)
    active = top_colour
    if active is None and args.colour is not None:
        active = colour_code(args.colour)
    cards = [parse_card(card) for card in hand]
    state = say["no_colour"] if active is None else say["in_play"] % book.COLOURS[active]
    print(say["on"] % (args.top.strip(), state))
    width = max(len(card) for card in hand)
    for i in range(len(hand)):
        verdict = say["yes"] if i in allowed else say["no"]
        reason = _reason(say, book, cards[i], active, top_rank, cards)
        print("  %2d  %-*s  %s: %s" % (i + 1, width, hand[i], verdict, reason))
    numbers = ", ".join(str(i + 1) for i in allowed)
    print(say["allowed"] % (numbers or say["nothing"]))
    return Exit.OK


def run_challenge(args):
    lang = _lang()
    say, book = _SAY[lang], rulebook.book(lang)
    hand = [card.strip() for card in args.hand]
    try:
        colour = colour_code(args.in_play)
    except CardError:
        colour = parse_card(args.in_play)[0]  # the card the +4 was played on
        if colour is None:
            if args.colour is None:
                raise CardError(say["c_black"] % args.in_play.strip()) from None
            colour = colour_code(args.colour)
    result = judge_wild4(hand, COLOURS[colour])
    print(say["c_colour"] % book.COLOURS[colour])
    print(say["c_hand"] % ", ".join(hand))
    held = [hand[i] for i in range(len(hand)) if parse_card(hand[i])[0] == colour]
    if held:
        print(say["c_held"] % (book.COLOURS[colour], ", ".join(held)))
    else:
        print(say["c_none"] % book.COLOURS[colour])
    title, text = rulebook.verdict(lang, result, colour)
    print(title)
    print(text)
    return Exit.OK
