# The evening's leaderboard across tables: per player games, wins and points, ranked as a tournament ranks.
#
# Games are export dicts (tafel_host.link.export.game_doc: players, totals,
# winners, ended_early, variant, finished), from any table of the evening.
# A player is a name ("Anna" at table 3 and at table 5 is one person; a team
# seat "Anna & Ben" is its own entry). Wins count as tafel history counts them
# (history/stats.won: by the variant's rule, a shared win for each winner, a
# game ended early for nobody). Points are the player's final totals summed
# over their games; in standard games more is better, in Minuspunkte and
# Challenge fewer. Variants are never added together: an evening of mixed
# variants gets one table per variant (by_variant), as tafel history does.
#
# Order: ORDERS names the keys to rank by, the first deciding, the next
# breaking ties: "wins" (more first), "points" (better first), "games" (fewer
# first: the same wins in fewer games rank higher). UNO tournaments rank by
# wins, then points: DEFAULT. Equal on every key is an equal place.
from ..history.stats import by_variant, higher_is_better, won

ORDERS = ("wins", "points", "games")
DEFAULT = ("wins", "points")


def parse_order(text):
    """("wins", "points") from "wins,points"; ValueError for an unknown key or an empty order."""
    keys = tuple(k.strip() for k in text.split(",") if k.strip())
    bad = [k for k in keys if k not in ORDERS]
    if not keys or bad or len(set(keys)) != len(keys):
        raise ValueError("an order is keys out of %s, comma-separated, each once: not %r" % (", ".join(ORDERS), text))
    return keys


def rows(games, order=DEFAULT):
    """[(variant, [row])]: per variant of the evening its players ranked; a row is a dict with
    place, name, games, wins, points (place equal for players equal on every key of `order`)."""
    out = []
    for variant, played in by_variant(games):
        out.append((variant, _ranked(variant, played, order)))
    return out


def _ranked(variant, games, order):
    per = {}
    for game in games:
        for seat, name in enumerate(game["players"]):
            row = per.setdefault(name, {"name": name, "games": 0, "wins": 0, "points": 0})
            row["games"] += 1
            row["points"] += game["totals"][seat]
            if won(game, name):
                row["wins"] += 1
    better = 1 if higher_is_better(variant) else -1

    def key(row):
        # sorted() puts the smallest first: every key is turned so that the better value is smaller
        parts = []
        for k in order:
            parts.append(-row["wins"] if k == "wins" else -better * row["points"] if k == "points" else row["games"])
        return tuple(parts)

    ranked = sorted(per.values(), key=lambda r: (key(r), r["name"].casefold()))
    place = 0
    for i, row in enumerate(ranked):
        if i == 0 or key(row) != key(ranked[i - 1]):
            place = i + 1
        row["place"] = place
    return ranked
