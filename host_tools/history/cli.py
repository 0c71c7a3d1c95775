# `tafel history`, `tafel chart`, `tafel report`: the laptop's history of games, no device needed.
#
#   tafel history import tafel-*.json        # add exports to the history (again: changes nothing)
#   tafel history                            # statistics per player over every game, a table per variant
#   tafel history --evening 2025-03-01       # ... over one evening
#   tafel chart 7 -o game7.png               # score progression of game 7 (DEVICE:7 if several have a 7)
#   tafel report -o evening.html             # the latest evening as one HTML page
# --db PATH picks another database (default: history.sqlite3 in the user's data directory).
# Exit codes: 0 ok, 2 bad input (a file that is no export, a game its records do not prove or
# that does not continue the copy in the history: nothing of that import is kept; an unknown
# game or evening).
import argparse
import sys
from pathlib import Path

from tafel.names import shown

from ..exits import Exit
from ..lang import count, say
from ..link import export, storage_notes
from . import clubs, stats
from .database import History, HistoryError, no_cycle_collection


def _db_option(parser, top):
    # --db is accepted before and after a subcommand; the inner one must not reset the outer.
    parser.add_argument("--db", metavar=say("m_path"), default=None if top else argparse.SUPPRESS,
                        help=say("hp_db"))


def add_parsers(commands):
    cmd = commands.add_parser("history", help=say("hp_history"), description=say("hp_history_d"))
    _db_option(cmd, True)
    cmd.add_argument("--evening", metavar="YYYY-MM-DD", help=say("hp_evening_only"))
    cmd.set_defaults(run=run_stats)
    sub = cmd.add_subparsers(dest="action", metavar=say("m_action"))
    imp = sub.add_parser("import", help=say("hp_import"), description=say("hp_import_d"))
    imp.add_argument("files", nargs="+", metavar=say("m_file"))
    _db_option(imp, False)
    imp.set_defaults(run=run_import)

    cmd = commands.add_parser("chart", help=say("hp_chart"), description=say("hp_chart_d"))
    cmd.add_argument("game", metavar=say("m_game"), help=say("hp_chart_game"))
    cmd.add_argument("-o", "--output", metavar=say("m_file"), help=say("hp_chart_output"))
    _db_option(cmd, True)
    cmd.set_defaults(run=run_chart)

    cmd = commands.add_parser("report", help=say("hp_report"), description=say("hp_report_d"))
    cmd.add_argument("-o", "--output", metavar=say("m_file"), help=say("hp_report_output"))
    cmd.add_argument("--evening", metavar="YYYY-MM-DD", help=say("hp_report_evening"))
    _db_option(cmd, True)
    cmd.set_defaults(run=run_report)


def _fail(message, code=Exit.USAGE):
    print("tafel: %s" % message, file=sys.stderr)
    return code


def run_import(args):
    docs = []
    for name in args.files:
        try:
            docs.append((name, export.load(name)))
        except export.ExportError as err:
            return _fail(err)
    try:
        with History(args.db) as hist:
            for (name, doc), got in zip(docs, hist.import_docs(docs)):
                print(say("imported", name, got["added"], got["updated"], got["unchanged"], doc["device"]["id"]))
                for text in storage_notes.losses(doc.get("storage_report")):
                    print(say("flash_check_of", name, text), file=sys.stderr)
            counts = hist.counts()
            print(say("history_holds", count(counts["games"], "game"), count(counts["devices"], "device"),
                      hist.path))
            _note_unproven(hist)
    except HistoryError as err:
        return _fail(err)
    return Exit.OK


def _note_unproven(hist):
    # Games from an older tafel that their records do not prove: left out, and said so.
    left = hist.unproven()
    if left:
        print(say("unproven", count(len(left), "game")), file=sys.stderr)
        for device, game_id, why in left[:5]:
            print("  %s:%d: %s" % (device, game_id, why), file=sys.stderr)
        if len(left) > 5:
            print(say("and_more", len(left) - 5), file=sys.stderr)
        print(say("unproven_fix"), file=sys.stderr)


def _print_table(rows):
    rows = [[shown(cell) for cell in row] for row in rows]  # a name with control characters (older data): escaped
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths))))


def run_stats(args):
    with no_cycle_collection():  # every game read and counted: no cycles among them to look for
        return _stats(args)


def _stats(args):
    try:
        with History(args.db) as hist:
            games = hist.games(args.evening)
            path = hist.path
            _note_unproven(hist)
    except HistoryError as err:
        return _fail(err)
    if not games:
        print(say("no_games_evening", args.evening, path) if args.evening else say("no_games_yet", path))
        return Exit.OK if not args.evening else Exit.USAGE
    print(stats.summary(games))
    for line in clubs.evenings(games):  # the games a club evening's hub stored: its club, tables, rounds
        print(line)
    for variant, of_variant in stats.by_variant(games):
        print()
        print(stats.heading(variant))
        _print_table(stats.table(stats.per_player(of_variant)))
    print()
    print(say("legend_wins"))
    print(say("legend_comeback"))
    return Exit.OK


def run_chart(args):
    from . import charts

    try:
        with History(args.db) as hist:
            game = hist.find_game(args.game)
        png = charts.progression_png(game)
    except HistoryError as err:
        return _fail(err)
    except charts.ChartError as err:
        return _fail(err, Exit.FAILED)
    out = Path(args.output or "tafel-game-%d.png" % game["id"])
    out.write_bytes(png)
    print(say("wrote_chart", out, game["device"], game["id"], count(len(game["rounds"]), "round")))
    return Exit.OK


def run_report(args):
    from . import charts, report

    try:
        with History(args.db) as hist:
            evenings = hist.evenings()
            if not evenings:
                return _fail(say("no_games_yet", hist.path))
            evening = args.evening or evenings[-1]
            if evening not in evenings:
                return _fail(say("no_such_evening", evening, ", ".join(evenings[-8:])))
            games = hist.games(evening)
            _note_unproven(hist)
        page = report.evening_html(games, evening)
    except HistoryError as err:
        return _fail(err)
    except charts.ChartError as err:
        return _fail(err, Exit.FAILED)
    out = Path(args.output or "tafel-%s.html" % evening)
    out.write_text(page, encoding="utf-8")
    print(say("wrote_report", out, count(len(games), "game"), evening))
    return Exit.OK
