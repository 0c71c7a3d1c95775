# The export as an Excel workbook (.xlsx, openpyxl): a sheet of every seat's rounds and a sheet of the games.
#
# The rounds sheet holds what the --excel CSV holds (export.csv_rows: one row
# per seat per round, its running total), with the column names and variants
# in the current language; numbers are numbers and the game's start a date,
# so Excel sorts, filters and sums them in any locale without an import
# dialog. The games sheet has a row per game: players, totals and how it
# ended (won by, ended early, running). Headers are bold, frozen and filtered.
# openpyxl is an extra (pip install 'tafel[excel]'); without it the export
# says so and nothing is written.
import io
from datetime import datetime, timezone

from tafel.names import shown

from ..isotime import epoch
from ..lang import say
from .export import CSV_FIELDS, csv_rows

VARIANTS = ("standard", "penalty", "challenge")


class NoExcel(Exception):
    """openpyxl is not installed."""


def available():
    """Whether openpyxl can be imported (checked before an export asks the device for anything)."""
    try:
        import openpyxl  # noqa: F401
    except ImportError:
        return False
    return True


def to_xlsx(doc):
    """The workbook's bytes; NoExcel without openpyxl."""
    try:
        from openpyxl import Workbook
        from openpyxl.styles import Font
    except ImportError:
        raise NoExcel(say("xlsx_needs_openpyxl")) from None
    book = Workbook()
    rounds = book.active
    rounds.title = say("xlsx_rounds")
    rounds.append([say("csv_" + field) for field in CSV_FIELDS])
    for row in csv_rows(doc):
        row["variant"] = _variant(row["variant"])
        row["created"] = _when(row["created"])
        rounds.append([row[field] for field in CSV_FIELDS])
    games = book.create_sheet(say("xlsx_games"))
    games.append([say(k) for k in ("csv_device", "csv_game", "csv_created", "csv_variant", "csv_target",
                                   "h_rounds", "h_players", "xlsx_totals", "h_state")])
    device = doc["device"]["id"]
    for game in doc["games"]:
        players = [shown(p) for p in game["players"]]
        games.append([device, game["id"], _when(game["created"] or ""), _variant(game["variant"]), game["target"],
                      len(game["rounds"]), ", ".join(players),
                      ", ".join("%s %d" % (p, t) for p, t in zip(players, game["totals"])), _state(game)])
    for sheet in (rounds, games):
        for cell in sheet[1]:
            cell.font = Font(bold=True)
        sheet.freeze_panes = "A2"
        sheet.auto_filter.ref = sheet.dimensions
        for column in sheet.columns:
            width = max(len(str(c.value)) if c.value is not None else 0 for c in column)
            sheet.column_dimensions[column[0].column_letter].width = min(60, max(8, width + 2))
        for cell in sheet["C"][1:]:
            if isinstance(cell.value, datetime):
                cell.number_format = "yyyy-mm-dd hh:mm"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _variant(name):
    return say("name_" + name) if name in VARIANTS else name


def _when(text):
    # "2025-03-01T18:00:00Z" as a date Excel knows (its cells have no time zone: UTC, as exported)
    if not text:
        return ""
    try:
        return datetime.fromtimestamp(epoch(text), timezone.utc).replace(tzinfo=None)
    except (TypeError, ValueError):
        return text


def _state(game):
    leaders = " & ".join(shown(w) for w in game["winners"])
    if game.get("ended_early"):
        return say("state_ended_led", leaders) if leaders else say("state_ended")
    if game["winners"]:
        return say("state_won_by", leaders)
    return say("state_finished" if game["finished"] else "state_open")
