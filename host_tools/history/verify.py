# A game of an export file checked against its own records: the history believes only what the core rebuilds.
#
# A file's game carries derived fields (rounds' scores, totals, winners,
# finished) beside its records. proven(game) rebuilds the game with the core:
# from "journal" (the records themselves, export.journal_text) when the file
# has it, else - an export from before that field - by replaying the file's
# rounds (winner and hands) through the core. Every field the file states must
# equal the rebuilt one, or VerifyError names the game and the field. The
# returned game is the rebuilt one: statistics, charts and reports never see
# a number the records do not give.
#
# relation(old, new) says how two proven copies of one game stand: a copy may
# replace another only when it continues it (the other's records are its
# beginning, or for copies without journal: the same game, the other's rounds
# its first rounds).
import base64
import binascii

from tafel import records, variants
from tafel.cards import DEFAULT_VALUES, value_table
from tafel.errors import RecordError, ScoreError
from tafel.game import Game

from ..isotime import epoch  # also database.epoch (database.py imports it from here)
from ..link import export

# Checked when the file has them; the first four must be there.
REQUIRED = ("rounds", "totals", "winners", "finished")
FIELDS = REQUIRED + ("id", "created", "variant", "target", "players", "values", "first_dealer", "ended_early")
HEADER = ("id", "created", "variant", "target", "players", "values", "first_dealer")


class VerifyError(Exception):
    """A game whose file disagrees with its records; `field` names what."""

    def __init__(self, text, field=None):
        Exception.__init__(self, text)
        self.field = field


def _name(game):
    return "game %s" % (game.get("id"),)


def journal_bytes(game):
    """The framed records of a game's "journal" field (None if it has none)."""
    text = game.get("journal")
    if text is None:
        return None
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, TypeError, ValueError):
        raise VerifyError("%s: its \"journal\" is not base64" % _name(game), "journal") from None


def _from_journal(game, data):
    try:
        rebuilt = export.game_from_journal(data)
    except (RecordError, ScoreError) as err:
        raise VerifyError("%s: its journal does not rebuild a game (%s)" % (_name(game), err), "journal") from None
    if rebuilt["damage"] or rebuilt["set_aside"]:
        raise VerifyError("%s: its journal holds records that do not replay (%s)" % (_name(game), rebuilt["damage"]),
                          "journal")
    if game.get("records") is not None and game["records"] != rebuilt["records"]:
        raise VerifyError("%s: \"records\" says %r, its journal holds %d" % (_name(game), game["records"],
                                                                           rebuilt["records"]), "records")
    return rebuilt


def _from_rounds(game):
    # An export without journal: the header and every round's winner and hands through the core.
    # The create record the device would have written, replayed like a journal's (the same rules for names).
    try:
        players = game["players"]
        dealer = players.index(game["first_dealer"]) if game.get("first_dealer") is not None else 0
        table = value_table(game.get("values") or None)
        code = variants.code(game["variant"])
        if code is None or type(game["target"]) is not int or type(game["id"]) is not int:
            raise ScoreError("variant %r, target %r, id %r" % (game["variant"], game["target"], game["id"]))
        overrides = [(r, table[r]) for r in range(len(DEFAULT_VALUES)) if table[r] != DEFAULT_VALUES[r]]
        payloads = [records.encode_create(players, code, game["target"], overrides,
                                          epoch(game.get("created")) or 0, game["id"], dealer)]
        core = Game.from_record(payloads[0])
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError, RecordError, ScoreError) as err:
        raise VerifyError("%s: its players, variant, target or values do not make a game (%s)"
                          % (_name(game), err), "players") from None
    for number, rnd in enumerate(game["rounds"], 1):
        try:
            if rnd.get("number", number) != number:
                raise ScoreError("it is numbered %r" % rnd.get("number"))
            hands = {core.players[s]: h for s, h in enumerate(rnd["hands"]) if h is not None}
            payloads.append(core.round_record(hands, rnd["winner"]))
            core.apply(payloads[-1])
        except (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError, RecordError,
                ScoreError) as err:
            raise VerifyError("%s: round %d does not replay (%s)" % (_name(game), number, err), "rounds") from None
    if game.get("ended_early"):
        try:
            payloads.append(core.finish_record())
            core.apply(payloads[-1])
        except ScoreError as err:
            raise VerifyError("%s: it cannot have ended early (%s)" % (_name(game), err), "ended_early") from None
    rebuilt = export.game_doc(core, game.get("records"))
    return rebuilt


def proven(game):
    """The game as its records say (export dict), with the file's "damage", "set_aside" and
    "journal" kept; VerifyError if any field the file states differs from it."""
    if not isinstance(game, dict):
        raise VerifyError("a game that is not an object", "game")
    missing = [key for key in REQUIRED if key not in game]
    if missing:
        raise VerifyError("%s has no \"%s\"" % (_name(game), missing[0]), missing[0])
    data = journal_bytes(game)
    try:
        rebuilt = _from_journal(game, data) if data is not None else _from_rounds(game)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as err:  # a field of the wrong shape
        raise VerifyError("%s is not well-formed (%s: %s)" % (_name(game), type(err).__name__, err), "game") from None
    for key in FIELDS:
        if key in game and game[key] != rebuilt[key]:
            raise VerifyError("%s: \"%s\" is %s in the file but %s by its %s"
                              % (_name(game), key, _short(game[key]), _short(rebuilt[key]),
                                 "records" if data is not None else "rounds"), key)
    out = dict(rebuilt)
    out["damage"] = game.get("damage")
    out["set_aside"] = game.get("set_aside") or []
    if data is not None:
        out["journal"] = game["journal"]
    return out


def _short(value):
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _steps(game):
    # A copy's steps, in order, for copies without journal: the rounds, then the early end.
    steps = [(r["winner"], r["hands"]) for r in game["rounds"]]
    return steps + [("ended early",)] if game.get("ended_early") else steps


def relation(old, new):
    """How proven copy `new` stands to proven copy `old` of the same game:
    "same", "newer" (continues old: replace), "older" (old continues it: keep old),
    or "conflict" (neither continues the other)."""
    a, b = journal_bytes(old), journal_bytes(new)
    if a is not None and b is not None:
        if a == b:
            return "same"
        if b.startswith(a):
            return "newer"
        return "older" if a.startswith(b) else "conflict"
    if any(old.get(key) != new.get(key) for key in HEADER if key in old and key in new):
        return "conflict"
    sa, sb = _steps(old), _steps(new)
    if sa == sb:
        if b is not None:
            return "newer"  # the same game, now with its records: the proving copy is kept
        return "newer" if (new.get("records") or 0) > (old.get("records") or 0) else "same"
    if sb[:len(sa)] == sa:
        return "newer"
    return "older" if sa[:len(sb)] == sb else "conflict"
