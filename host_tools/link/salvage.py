# Every intact journal record of a game, however damaged its files: found past damage, merged by number, described.
#
# The device sends a game's files as they lie on flash: the closed journal,
# the live segments and the bytes its store set aside in keep/ (a damaged
# file's whole bytes, the files after a gap in the numbers). A frame carries
# its own length, number and CRC, so a good frame is recognised wherever it
# lies: after a damaged frame the search goes on byte by byte (a false match
# needs a CRC32 to agree by chance). The first good copy of a number wins, in
# the order the device lists the files. A file whose create record (number 0)
# is not the game's own holds another game's records (an id used twice by an
# older firmware): they are never mixed in, only described, marked foreign.
from tafel import journal, records
from tafel.errors import RecordError
from tafel.variants import NAMES as VARIANTS

from ..isotime import iso


class Found:
    """What the files hold: records {seq: payload}, foreign [(seq, payload)], conflicts."""

    def __init__(self):
        self.records = {}
        self.foreign = []
        self.conflicts = 0  # numbers whose copies differ (the first was used)

    def run(self):
        """The payloads numbered 0, 1, 2 ... up to the first number missing."""
        out = []
        while len(out) in self.records:
            out.append(self.records[len(out)])
        return out

    def missing(self, start):
        """[(first, last)] of the numbers missing between start and the highest one found."""
        out, seq, top = [], start, max(self.records, default=-1)
        while seq <= top:
            if seq in self.records:
                seq += 1
                continue
            end = seq
            while end + 1 <= top and end + 1 not in self.records:
                end += 1
            out.append((seq, end))
            seq = end + 1
        return out


def frames(data):
    """(seq, payload) of every good frame in data, searching on past damage."""
    out, pos = [], 0
    data = bytes(data)
    while pos < len(data):
        got = journal.read_frame(data, pos)
        if got is None:
            pos += 1
            continue
        out.append((got[0], got[1]))
        pos = got[2]
    return out


def find(files):
    """A Found of one game's files (bytes, in the order the device lists them)."""
    found = Found()
    create = None
    for data in files:
        got = frames(data)
        own = dict(got).get(0)
        if own is not None and create is not None and own != create:
            found.foreign += got
            continue
        if create is None and own is not None:
            create = own
        for seq, payload in got:
            old = found.records.setdefault(seq, payload)
            if old != payload:
                found.conflicts += 1
    return found


def describe(seq, payload, players=None, foreign=False):
    """One record as the export's "set_aside" lists it: its number, kind and fields.
    Seats are named when the game's players are known (else "winner_seat")."""
    out = {"seq": seq}
    if foreign:
        out["foreign"] = True
    try:
        event = records.decode(payload)
    except RecordError as err:
        out.update(kind=None, error=str(err), hex=bytes(payload).hex())
        return out
    kind = event[0]
    out["kind"] = kind
    if kind == "create":
        _, game_id, created, variant, target, seats, _ = event
        out.update(id=game_id, created=iso(created), variant=VARIANTS[variant], target=target, players=list(seats))
    elif kind in ("round", "edit"):
        if kind == "edit":
            out["round"] = event[1] + 1
        winner, hands = event[-2], event[-1]
        if players is not None and len(players) == len(hands):
            out["winner"] = None if winner is None else players[winner]
        else:
            out["winner_seat"] = winner
        out["hands"] = list(hands)
    elif kind == "undo":
        out["round"] = event[1] + 1
    else:
        out["when"] = iso(event[1])
    return out


def ranges(pairs):
    """'12', '12 to 14', '12, 15 to 16' of [(first, last)]."""
    return ", ".join("%d" % a if a == b else "%d to %d" % (a, b) for a, b in pairs)


def tell(games, unplaced, unreadable):
    """A line per damaged game of an export, for the user: what was replayed and
    what came home beside it. games: {id: game dict}; unplaced: Unreadable.unplaced
    dicts; unreadable: (id, why) of games that could not be read at all."""
    out = []
    for game_id in sorted(games):
        g = games[game_id]
        if g.get("damage"):
            out.append("game %d is damaged: %d round%s replayed; %s" % (
                game_id, len(g["rounds"]), "" if len(g["rounds"]) == 1 else "s", g["damage"]))
    for u in unplaced:
        out.append("game %s has no readable start; its %d intact records are under \"unreadable\""
                   % (u["id"], len(u["set_aside"])))
    placed = [u["id"] for u in unplaced]
    for game_id, why in unreadable:
        if game_id not in placed:
            out.append("game %d cannot be read (%s); it is left out" % (game_id, why))
    return out
