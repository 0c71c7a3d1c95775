# Score progression of one game as a PNG: each seat's total after every round, and the target line.
#
# matplotlib with the Agg backend (no display needed); imported on first use so
# the rest of the tool starts fast and works without it.
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
