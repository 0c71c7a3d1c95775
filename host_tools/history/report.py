# One evening as a single self-contained HTML page: standings, statistics, every game with its chart.
#
# Charts are embedded as data: URIs and the style sheet is inline, so the page
# can be mailed or opened offline; it loads nothing from anywhere.
import base64
import html
import time

from . import charts, stats

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.6em 0; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
td.win { font-weight: bold; } tr.total td { border-top: 2px solid #444; font-weight: bold; }
p.meta { color: #666; } img { max-width: 100%; }
"""


def _e(text):
    return html.escape(str(text), quote=True)


def _table(rows, head=True, total_row=False):
    out = ["<table>"]
    for i, row in enumerate(rows):
        cells = "".join(("<th>%s</th>" if head and i == 0 else "<td>%s</td>") % _e(cell) for cell in row)
        cls = ' class="total"' if total_row and i == len(rows) - 1 else ""
        out.append("<tr%s>%s</tr>" % (cls, cells))
    out.append("</table>")
    return "\n".join(out)


def _count(n, word):
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def _when(game):
    if game.get("created"):
        return time.strftime("%H:%M", time.localtime(game["when"]))
    return "clock not set"


def _game_section(game, with_charts):
    players = game["players"]
    rows = [["round", "winner"] + players]
    for rnd in game["rounds"]:
        cells = []
        for seat in range(len(players)):
            hand, score = rnd["hands"][seat], rnd["scores"][seat]
            cells.append("out" if hand is None else ("+%d" % score if score else str(hand)))
        rows.append([str(rnd["number"]), rnd["winner"] or "-"] + cells)
    rows.append(["total", ""] + [str(t) for t in game["totals"]])
    if game["winners"]:
        result = "Won by %s." % " & ".join(game["winners"])
    elif game.get("ended_early"):
        result = "Ended early."
    else:
        result = "Not finished."
    parts = [
        "<h2>Game %s (device %s)</h2>" % (_e(game["id"]), _e(game.get("device", "?"))),
        '<p class="meta">%s to %s, %s, %s. %s</p>' % (
            _e(game["variant"]), _e(game["target"]), _e(_when(game)), _count(len(game["rounds"]), "round"),
            _e(result)),
        _table(rows, total_row=True),
    ]
    if with_charts and game["rounds"]:
        png = charts.progression_png(game)
        parts.append('<img alt="score progression of game %s" src="data:image/png;base64,%s">'
                     % (_e(game["id"]), base64.b64encode(png).decode("ascii")))
    return "\n".join(parts)


def evening_html(games, evening, with_charts=True):
    """The page for `games` (History.games(evening)): a summary, then each game."""
    title = "Tafel: the evening of %s" % evening
    players = stats.per_player(games)
    finished = sum(1 for g in games if g["finished"])
    body = [
        "<h1>%s</h1>" % _e(title),
        '<p class="meta">%s (%d finished), %s, %s.</p>' % (
            _count(len(games), "game"), finished, _count(sum(len(g["rounds"]) for g in games), "round"),
            _count(len(players), "player")),
        "<h2>Players</h2>",
        _table(stats.table(players)),
    ]
    body += [_game_section(game, with_charts) for game in games]
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>%s</title>\n"
            "<style>%s</style>\n</head>\n<body>\n%s\n</body>\n</html>\n" % (_e(title), _STYLE, "\n".join(body)))
