# One evening as a single self-contained HTML page: standings, statistics, every game with its chart.
#
# Charts are embedded as data: URIs and the style sheet is inline, so the page
# can be mailed or opened offline; it loads nothing from anywhere.
import base64
import html
import time

from .. import lang
from ..lang import count, say
from . import charts, clubs, stats

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


def _when(game):
    if game.get("created"):
        return time.strftime("%H:%M", time.localtime(game["when"]))
    return say("clock_not_set")


def _game_section(game, with_charts):
    players = game["players"]
    rows = [[say("col_round"), say("col_winner")] + players]
    for rnd in game["rounds"]:
        cells = []
        for seat in range(len(players)):
            hand, score = rnd["hands"][seat], rnd["scores"][seat]
            cells.append(say("out") if hand is None else ("+%d" % score if score else str(hand)))
        rows.append([str(rnd["number"]), rnd["winner"] or "-"] + cells)
    rows.append([say("col_total"), ""] + [str(t) for t in game["totals"]])
    club = clubs.of_game(game)  # a club evening's game: its table, club and tournament round
    parts = [
        "<h2>%s</h2>" % _e(say("game_heading", game["id"], game.get("device", "?"))),
        '<p class="meta">%s%s, %s, %s. %s.</p>' % (
            _e(club) + ". " if club else "",
            _e(say("variant_to", say("name_" + game["variant"]), game["target"])), _e(_when(game)),
            _e(count(len(game["rounds"]), "round")), _e(stats.result(game))),
        _table(rows, total_row=True),
    ]
    if with_charts and game["rounds"]:  # SVG: drawn in a millisecond, where a PNG takes a tenth of a second
        svg = charts.progression_svg(game).encode("utf-8")
        parts.append('<img alt="%s" src="data:image/svg+xml;base64,%s">'
                     % (_e(say("chart_alt", game["id"])), base64.b64encode(svg).decode("ascii")))
    return "\n".join(parts)


def evening_html(games, evening, with_charts=True):
    """The page for `games` (History.games(evening)): a summary, a table of players per
    variant (saying whether higher or lower is better), then each game."""
    title = say("report_title", evening)
    names = {name for g in games for name in g["players"]}
    finished = sum(1 for g in games if g["finished"] and not stats.ended_early(g))
    early = sum(1 for g in games if stats.ended_early(g))
    state = say("n_finished", finished) + (say("n_ended_early", early) if early else "")
    body = [
        "<h1>%s</h1>" % _e(title),
        '<p class="meta">%s (%s), %s, %s.</p>' % (
            _e(count(len(games), "game")), _e(state), _e(count(sum(len(g["rounds"]) for g in games), "round")),
            _e(count(len(names), "player"))),
    ]
    body += ['<p class="meta">%s.</p>' % _e(line) for line in clubs.evenings(games)]
    for variant, of_variant in stats.by_variant(games):
        body += ["<h2>%s</h2>" % _e(say("players_of", say("name_" + variant))),
                 '<p class="meta">%s</p>' % _e(stats.heading(variant)),
                 _table(stats.table(stats.per_player(of_variant)))]
    body.append('<p class="meta">%s<br>%s</p>' % (_e(say("legend_wins")), _e(say("legend_comeback"))))
    body += [_game_section(game, with_charts) for game in games]
    return ("<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n<meta charset=\"utf-8\">\n<title>%s</title>\n"
            "<style>%s</style>\n</head>\n<body>\n%s\n</body>\n</html>\n"
            % (lang.current(), _e(title), _STYLE, "\n".join(body)))
