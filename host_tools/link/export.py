# Games as the laptop keeps them: journals decoded with the core, written as JSON or CSV.
#
# The device streams each game's journal frames as they lie on its flash; this
# module turns them into the export document of DESIGN §5 without knowing
# anything about the link. One document:
#
#   {"format": "tafel-export", "version": 1,
#    "device": {"id": "a1b2c3d4e5f6", "firmware": "0.1.0"},
#    "exported": "2025-03-01T21:40:00Z", "cursor": "17:40/57@31337" (DONE's, docs/protocol.md),
#    "games": [{"id": 7, "created": "2025-03-01T19:02:11Z" | null, "variant": "standard",
#               "target": 500, "players": ["Anna", "Ben", "Cleo"], "values": {"swap": 50},
#               "first_dealer": "Anna",
#               "rounds": [{"number": 1, "winner": "Anna", "hands": [0, 36, 53], "scores": [89, 0, 0]}],
#               "totals": [89, 0, 0], "finished": false, "ended_early": false, "winners": [],
#               "records": 2, "damage": null, "set_aside": [],
#               "journal": "AQAAAAAA..."}],
#    "storage_report": [{"key": "game_damaged", "game": 7, "detail": "bad frame at byte 40"}],
#    "unreadable": [{"id": 9, "damage": "...", "set_aside": [...]}]}
#
# hands[i], scores[i] and totals[i] belong to players[i]; a hand is null for a
# seat that was out of the game (challenge). "created" is null when the device
# clock had not been set when the game began. "values" lists only the house
# values that differ from the standard table. "first_dealer" is the player who
# dealt round 1 (the first seat unless the table chose another). "records" is a count: the number
# of journal records the game was rebuilt from (the records themselves are in "journal"): the
# journal only grows, so of two exports of one game the one with more records is the newer.
# "journal" is base64 of those records framed as on the device's flash (journal.frame: length,
# number, payload, CRC), numbered from 0: the file proves itself, as `tafel history import`
# rebuilds every game from it with the core and refuses a file whose other fields disagree
# (history/verify.py). "damage" says where a journal stopped being readable, if it did; the
# game then holds what came before, and "set_aside" every intact record after
# the damage that could not be replayed ({"seq": 14, "kind": "round",
# "winner": "Ben", "hands": [...]}: salvage.describe). "storage_report" is
# what the device's boot check found and did (INFO); "unreadable" the games
# with intact records but no readable start (no create record).
import base64
import csv
import io
import json
import tempfile
import time
from pathlib import Path

from tafel import journal, wire
from tafel.cards import DEFAULT_VALUES, RANKS
from tafel.errors import RecordError, ScoreError
from tafel.game import Game
from tafel.names import shown

from ..isotime import iso
from ..lang import say
from . import salvage, storage_notes

FORMAT = "tafel-export"
VERSION = 1
CSV_FIELDS = ("device", "game", "created", "variant", "target", "round", "seat", "player",
              "winner", "hand", "score", "total")


class ExportError(Exception):
    """A file that is not a Tafel export this version can read."""


class Replay:
    """A game replayed with the core one record at a time, as every rebuild here does it (the
    export, `tafel history import` through verify.py, the club's hub as each record arrives).
    `game` is the tafel.Game so far, `payloads` the records it took, numbered from 0."""

    def __init__(self, create):
        """From the create record; RecordError or ScoreError if it is none."""
        self.game = Game.from_records([create])
        self.payloads = [create]

    @property
    def used(self):
        return len(self.payloads)

    def add(self, payload):
        """The next record; RecordError or ScoreError, and the game as it was, if it does not fit."""
        self.game.apply(payload)
        self.payloads.append(payload)

    def doc(self):
        """The game of the export document, as game_from_journal makes it from these records."""
        doc = game_doc(self.game, self.used)
        doc["set_aside"] = []
        doc["journal"] = journal_text(self.payloads)
        return doc


def rebuild(payloads):
    """The game replayed from its record payloads, and the number of records used.
    A record that does not fit ends the replay there (reported as damage)."""
    if not payloads:
        raise RecordError("no records")
    replay, damage = Replay(payloads[0]), None
    for payload in payloads[1:]:
        try:
            replay.add(payload)
        except (RecordError, ScoreError) as err:
            damage = "record %d does not fit: %s" % (replay.used, err)
            break
    return replay.game, replay.used, damage


def journal_text(payloads):
    """The "journal" field: record payloads (numbered from 0) framed as on flash, in base64."""
    return base64.b64encode(b"".join(journal.frame(seq, p) for seq, p in enumerate(payloads))).decode("ascii")


def game_doc(game, records_used=None, damage=None):
    """One game of the export document, from a tafel.Game."""
    rounds = []
    for rnd in game.rounds:
        rounds.append({"number": rnd.index + 1, "winner": rnd.winner,
                       "hands": list(rnd.hands), "scores": list(rnd.scores)})
    values = {RANKS[r]: game.values[r] for r in range(len(RANKS)) if game.values[r] != DEFAULT_VALUES[r]}
    return {
        "id": game.game_id,
        "created": iso(game.created),
        "variant": game.variant,
        "target": game.target,
        "players": list(game.players),
        "values": values,
        "first_dealer": game.players[game.first_dealer],
        "rounds": rounds,
        "totals": [total for _, total in game.totals()],
        "finished": game.finished,
        "ended_early": game.ended_early,
        "winners": game.winners(),
        "records": records_used,
        "damage": damage,
    }


class Unreadable(RecordError):
    """A game without a readable start; `unplaced` is what the export keeps of it
    ({"id", "damage", "set_aside"}: every intact record, described)."""

    def __init__(self, text, unplaced):
        RecordError.__init__(self, text)
        self.unplaced = unplaced


def game_from_files(files, game_id=None):
    """One game of the export document from its files, in the order the device
    lists them: bytes, or (GAME file number, bytes) so that files set aside in
    keep/ (wire.KEEP_FILE on) are told apart. Every intact record is merged by
    number; the run from the create record on is replayed, every later one
    listed in "set_aside" and counted in "damage". Unreadable (a RecordError)
    when no create record starts the run."""
    files = [f if isinstance(f, tuple) else (0, f) for f in files]
    # The journal's own files say where the device's reading stops; keep/ holds damage by definition.
    _, problems = wire.journal_records([data for number, data in files if number < wire.KEEP_FILE])
    found = salvage.find([data for _, data in files])
    payloads = found.run()
    try:
        if not payloads:
            raise RecordError("; ".join(problems) or "empty journal")
        game, used, misfit = rebuild(payloads)
    except (RecordError, ScoreError) as err:
        rest = [salvage.describe(seq, found.records[seq]) for seq in sorted(found.records)]
        rest += [salvage.describe(seq, payload, foreign=True) for seq, payload in found.foreign]
        if not rest:
            raise
        text = "no readable start (%s); %d intact record%s set aside" % (err, len(rest), "" if len(rest) == 1 else "s")
        raise Unreadable(text, {"id": game_id, "damage": text, "set_aside": rest}) from None
    if game_id is not None and game.game_id != game_id:
        raise RecordError("journal of game %d sent as game %d" % (game.game_id, game_id))
    rest = [salvage.describe(seq, found.records[seq], game.players) for seq in sorted(found.records) if seq >= used]
    notes = problems + ([misfit] if misfit else [])
    if rest:
        gap = found.missing(used)
        notes.append("%d intact record%s after %s could not be replayed%s; see set_aside" % (
            len(rest), "" if len(rest) == 1 else "s", "the gap" if gap else "it",
            " (missing: %s)" % salvage.ranges(gap) if gap else ""))
    if found.conflicts:
        notes.append("%d record%s differ between copies (the first was used)"
                     % (found.conflicts, "" if found.conflicts == 1 else "s"))
    if found.foreign:
        notes.append("%d record%s of another game with this id (foreign in set_aside)"
                     % (len(found.foreign), "" if len(found.foreign) == 1 else "s"))
        rest += [salvage.describe(seq, payload, foreign=True) for seq, payload in found.foreign]
    doc = game_doc(game, used, "; ".join(_unique(notes)) or None)
    doc["set_aside"] = rest
    doc["journal"] = journal_text(payloads[:used])
    return doc


def _unique(texts):
    out = []
    for text in texts:
        if text not in out:
            out.append(text)
    return out


def game_from_journal(data, game_id=None):
    """One game from a single journal's bytes (a closed games/<id>.tj)."""
    return game_from_files([data], game_id)


def document(device_id, firmware, games, cursor=None, exported=None, storage_report=None, unreadable=None):
    """The whole export: `games` are game dicts (game_doc / game_from_journal);
    storage_report (INFO's notes) and unreadable (Unreadable.unplaced) when given."""
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "device": {"id": device_id, "firmware": firmware},
        "exported": iso(int(time.time() if exported is None else exported)),
        "cursor": cursor,
    }
    if storage_report is not None:
        doc["storage_report"] = [storage_notes.named(n) for n in storage_report]
    if unreadable is not None:
        doc["unreadable"] = sorted(unreadable, key=lambda g: g["id"] or 0)
    doc["games"] = sorted(games, key=lambda g: g["id"])
    return doc


def check(doc, source="export"):
    """The document, if it is an export this version reads; else ExportError."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ExportError(say("not_export", source, FORMAT))
    if doc.get("version") != VERSION:
        raise ExportError(say("export_version", source, doc.get("version"), VERSION))
    device = doc.get("device")
    if not isinstance(device, dict) or not isinstance(device.get("id"), str) or not device["id"]:
        raise ExportError(say("export_no_device", source))
    games = doc.get("games")
    if not isinstance(games, list):
        raise ExportError(say("export_no_games", source))
    for game in games:
        _check_game(game, source)
    return doc


def _check_game(game, source):
    try:
        n = len(game["players"])
        ok = isinstance(game["id"], int) and n >= 2 and len(game["totals"]) == n
        for rnd in game["rounds"]:
            ok = ok and len(rnd["hands"]) == n and len(rnd["scores"]) == n
        ok = ok and isinstance(game["winners"], list)
    except (KeyError, TypeError):
        ok = False
    if not ok:
        raise ExportError(say("export_bad_game", source, game.get("id") if isinstance(game, dict) else None))


def load(path):
    """An export file, checked."""
    try:
        with open(path, encoding="utf-8") as src:
            doc = json.load(src)
    except (OSError, UnicodeDecodeError, ValueError) as err:
        raise ExportError(say("cannot_read", path, why_unreadable(err))) from None
    return check(doc, str(path))


def why_unreadable(err):
    """Why a file cannot be read, in the laptop's language: Python's own words for the usual cases
    are English (roster_cli reads a file of names with it too)."""
    for kind, key in ((FileNotFoundError, "no_such_file"), (IsADirectoryError, "is_folder"),
                      (PermissionError, "no_permission"), (UnicodeDecodeError, "not_utf8"),
                      (ValueError, "not_json")):
        if isinstance(err, kind):
            return say(key)
    return err.strerror or err if isinstance(err, OSError) else err


def to_json(doc):
    """The document as JSON text: one line per game's fields and per round, so it reads and diffs well."""
    def dump(value):
        return json.dumps(value, ensure_ascii=False)

    def rows(items):  # a list one element a line
        return "[%s]" % ("\n" + ",\n".join("    " + dump(item) for item in items) + "\n   " if items else "")

    head = ",\n".join(' %s: %s' % (dump(k), dump(v)) for k, v in doc.items() if k != "games")
    games = []
    for game in doc["games"]:
        lists = [k for k in ("rounds", "set_aside") if k in game]
        lines = [k for k in ("journal",) if k in game]  # long: a line of its own, last
        fields = ", ".join("%s: %s" % (dump(k), dump(v)) for k, v in game.items() if k not in lists + lines)
        games.append("  {%s,\n%s}" % (fields, ",\n".join(["   %s: %s" % (dump(k), rows(game[k])) for k in lists]
                                                          + ["   %s: %s" % (dump(k), dump(game[k])) for k in lines])))
    body = "[\n" + ",\n".join(games) + "\n ]" if games else "[]"
    return "{\n%s,\n \"games\": %s\n}\n" % (head, body)


def csv_rows(doc):
    """One row per seat per round, with the seat's running total after the round."""
    device = doc["device"]["id"]
    for game in doc["games"]:
        running = [0] * len(game["players"])
        for rnd in game["rounds"]:
            for seat, player in enumerate(game["players"]):
                running[seat] += rnd["scores"][seat]
                yield {
                    "device": device, "game": game["id"], "created": game["created"] or "",
                    "variant": game["variant"], "target": game["target"], "round": rnd["number"],
                    "seat": seat + 1, "player": shown(player), "winner": int(rnd["winner"] == player),
                    "hand": "" if rnd["hands"][seat] is None else rnd["hands"][seat],
                    "score": rnd["scores"][seat], "total": running[seat],
                }


def to_csv(doc, excel=False):
    """The rows as CSV: plain (UTF-8, commas, the field names above) or, with `excel`, as
    Excel opens it by double-click in any locale: a UTF-8 byte order mark (else Excel reads
    the bytes as Windows-1252: JÃ¼rgen), between fields the list separator of the language's
    Excel (German: ';', as in every locale whose decimal mark is a comma; English: ','), the
    column names and variants in the current language. Every number in it is whole, so no
    decimal mark is written."""
    out = io.StringIO()
    if not excel:
        writer = csv.DictWriter(out, CSV_FIELDS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(csv_rows(doc))
        return out.getvalue()
    out.write("\ufeff")
    writer = csv.writer(out, delimiter=say("csv_separator"), lineterminator="\r\n")
    writer.writerow([say("csv_" + field) for field in CSV_FIELDS])
    for row in csv_rows(doc):
        row["variant"] = say("name_" + row["variant"]) if row["variant"] in ("standard", "penalty", "challenge") \
            else row["variant"]
        writer.writerow([row[field] for field in CSV_FIELDS])
    return out.getvalue()


def render(doc, fmt, excel=False):
    if fmt == "csv":
        return to_csv(doc, excel)
    return to_json(doc)


def output_problem(output):
    """Why the export could not be written to `output` (None: it can; '-' always can): tried
    with a scratch file beside it, before any transfer. No output: the current folder."""
    if output == "-":
        return None
    path = Path(output) if output else Path.cwd() / "tafel-export.json"
    where = output or say("current_folder", path.parent)
    if path.is_dir():
        return say("out_is_folder", output, path / "tafel.json")
    if not path.parent.is_dir():
        return say("out_no_folder", where, path.parent)
    try:
        with tempfile.NamedTemporaryFile(dir=str(path.parent), prefix=".%s." % path.name, suffix=".part"):
            pass
    except OSError as err:
        return say("out_cannot_write", where, err.strerror or err)
    return None
