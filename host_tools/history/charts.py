# Score progression of one game as a chart: each seat's total after every round, and the target line.
#
# As a PNG (`tafel chart`): matplotlib with the Agg backend (no display needed), imported on first
# use so the rest of the tool starts fast and works without it. As SVG (the evening's report): drawn
# here as text, a millisecond a game, so a report of an evening's 250 games takes no minute.
import html
import io

from .. import lang
from .stats import ended_early, running_totals, won

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class ChartError(Exception):
    """matplotlib is missing."""


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise ChartError(lang.say("need_matplotlib")) from None
    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def title(game):
    text = lang.say("chart_title", game["id"], lang.say("name_" + game["variant"]), game["target"])
    if game.get("created"):
        text += ", " + game["created"][:16].replace("T", " ") + " UTC"
    if game["winners"] or ended_early(game):
        text += " - " + lang.say("chart_ended_early" if ended_early(game) else "chart_won_by",
                                 " & ".join(game["winners"]))
    return text


def progression_png(game, width=7.0, height=4.0, dpi=100):
    """PNG bytes of the game's running totals per seat, round 0 (all 0) to the last."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(width, height), dpi=dpi)
    try:
        steps = [[0] * len(game["players"])] + running_totals(game)
        xs = list(range(len(steps)))
        for seat, name in enumerate(game["players"]):
            label = name + (lang.say("chart_won") if won(game, name) else "")
            ax.plot(xs, [totals[seat] for totals in steps], marker="o", markersize=3,
                    linewidth=2.2 if name in game["winners"] else 1.4, label=label)
        ax.axhline(game["target"], color="grey", linestyle="--", linewidth=1,
                   label=lang.say("chart_target", game["target"]))
        ax.set_xlabel(lang.say("chart_round"))
        ax.set_ylabel(lang.say("chart_total"))
        ax.set_title(title(game), fontsize=10)
        ax.set_xlim(0, max(1, len(steps) - 1))
        if len(steps) <= 21:
            ax.set_xticks(xs)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8, loc="upper left")
        fig.tight_layout()
        out = io.BytesIO()
        fig.savefig(out, format="png")
        return out.getvalue()
    finally:
        plt.close(fig)


# The SVG chart: the PNG's size at 100 dpi, its colours (matplotlib's default cycle), its parts.
_W, _H = 700, 400
_LEFT, _RIGHT, _TOP, _BOTTOM = 60, 20, 34, 46
_COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
            "#17becf")


def _step(span, ticks=6):
    # A round step (1, 2 or 5 times a power of ten) giving at most `ticks` ticks over `span`.
    power = 1
    while True:
        for factor in (1, 2, 5):
            if span / (factor * power) <= ticks:
                return factor * power
        power *= 10


def progression_svg(game):
    """SVG text of the game's running totals per seat, round 0 (all 0) to the last: what
    progression_png draws, without matplotlib."""
    steps = [[0] * len(game["players"])] + running_totals(game)
    last = max(1, len(steps) - 1)
    values = [v for totals in steps for v in totals] + [game["target"]]
    low, high = min(0, min(values)), max(values)
    ystep = _step(high - low or 1)
    low, high = (low // ystep) * ystep, -(-high // ystep) * ystep
    width, height = _W - _LEFT - _RIGHT, _H - _TOP - _BOTTOM

    def x(i):
        return _LEFT + width * i / last

    def y(v):
        return _TOP + height * (high - v) / ((high - low) or 1)

    e = html.escape
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
           'font-family="sans-serif" font-size="11">' % (_W, _H, _W, _H),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="20" text-anchor="middle" font-size="13">%s</text>' % (_W // 2, e(title(game)))]
    xstep = 1 if last <= 20 else _step(last, 10)
    for i in range(0, last + 1, xstep):
        out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/><text x="%.1f" y="%d" '
                   'text-anchor="middle">%d</text>' % (x(i), _TOP, x(i), _TOP + height, x(i), _TOP + height + 15, i))
    for v in range(int(low), int(high) + 1, ystep):
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/><text x="%d" y="%.1f" '
                   'text-anchor="end">%d</text>' % (_LEFT, y(v), _LEFT + width, y(v), _LEFT - 5, y(v) + 4, v))
    out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#444"/>' % (_LEFT, _TOP, width, height))
    out.append('<text x="%d" y="%d" text-anchor="middle">%s</text>' % (_LEFT + width // 2, _H - 8,
                                                                     e(lang.say("chart_round"))))
    out.append('<text transform="translate(14 %d) rotate(-90)" text-anchor="middle">%s</text>'
               % (_TOP + height // 2, e(lang.say("chart_total"))))
    out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="grey" stroke-dasharray="5 4"/>'
               % (_LEFT, y(game["target"]), _LEFT + width, y(game["target"])))
    legend = []
    for seat, name in enumerate(game["players"]):
        colour = _COLOURS[seat % len(_COLOURS)]
        points = [(x(i), y(totals[seat])) for i, totals in enumerate(steps)]
        out.append('<polyline fill="none" stroke="%s" stroke-width="%.1f" points="%s"/>' % (
            colour, 2.2 if name in game["winners"] else 1.4, " ".join("%.1f,%.1f" % p for p in points)))
        out.extend('<circle cx="%.1f" cy="%.1f" r="2.5" fill="%s"/>' % (px, py, colour) for px, py in points)
        legend.append((colour, name + (lang.say("chart_won") if won(game, name) else ""), ""))
    legend.append(("grey", lang.say("chart_target", game["target"]), ' stroke-dasharray="5 4"'))
    top = _TOP + 8
    out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="white" fill-opacity="0.8" stroke="#ccc"/>'
               % (_LEFT + 6, top - 2, 8 + 7 * max(len(text) for _, text, _ in legend) + 30, 14 * len(legend) + 4))
    for i, (colour, text, dash) in enumerate(legend):
        at = top + 14 * i + 7
        out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"%s/><text x="%d" y="%d">%s'
                   '</text>' % (_LEFT + 12, at, _LEFT + 32, at, colour, dash, _LEFT + 38, at + 4, e(text)))
    out.append("</svg>")
    return "\n".join(out)
