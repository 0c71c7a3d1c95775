# Games a club evening's hub stored: their club, table and tournament round, and how listings and the report say them.
#
# The hub keeps tables of its own beside the history's (club/registry.py, in
# the same database): club_games names each game a table sent with its club,
# the table's name and the evening; club_rounds holds the tournament's rounds
# as drawn. A game is of a round when its table had that round, it reached the
# hub after the round was drawn, on the same evening by the hub's clock, and
# its players are the ones the round seated there: the latest such round (a
# table that played on without a new round, or the same four again, keeps
# it). A database without the hub's tables has no club games. Read only: the
# history never writes the club's tables.
import json

from ..lang import count, say


def marks(db, evening_of):
    """{(device, game id): {"club", "table", "round"}} of the games a hub stored; "round" None when no
    tournament round seated the game. `evening_of` is history.database.evening_of."""
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "club_games" not in tables:
        return {}
    rounds = {}
    if "club_rounds" in tables:
        for club, evening, number, device, players, drawn in db.execute(
                "SELECT club, evening, round, device, players, drawn FROM club_rounds ORDER BY round"):
            rounds.setdefault((club, evening, device), []).append((number, sorted(json.loads(players)), drawn))
    out = {}
    for device, game, club, table, first_seen, players in db.execute(
            "SELECT c.device, c.game, c.club, c.table_name, c.first_seen, g.players FROM club_games c "
            "JOIN games g ON g.device = c.device AND g.id = c.game"):
        number = None
        if rounds:  # (a club without tournaments: no game's players or evening to look at)
            seated = sorted(json.loads(players or "[]"))
            for n, names, drawn in rounds.get((club, evening_of(first_seen), device), ()):
                if names == seated and int(drawn) <= first_seen:
                    number = n
        out[(device, game)] = {"club": club, "table": table, "round": number}
    return out


def natural(name):
    """A sort key for table names: their numbers as numbers ("Tisch 2" before "Tisch 10")."""
    return [(0, int(part), "") if part.isdigit() else (1, 0, part.casefold())
            for part in "".join(c if c.isdigit() else " %s " % c for c in name).split()]


def evenings(games):
    """One line per club evening among `games` (History.games(), marked): the club, the evening, how
    many of its games, at which tables, and the tournament rounds; [] when none is a club's game."""
    found = {}
    for game in games:
        mark = game.get("club")
        if mark:
            found.setdefault((game["evening"], mark["club"]), []).append(mark)
    lines = []
    for (evening, club), of in sorted(found.items()):
        tables = ", ".join(sorted({m["table"] or "?" for m in of}, key=natural))
        rounds = sorted({m["round"] for m in of if m["round"] is not None})
        if not rounds:
            tour = ""
        elif len(rounds) == 1:
            tour = say("club_mark_round_one", rounds[0])
        else:
            tour = say("club_mark_rounds", rounds[0], rounds[-1])
        lines.append(say("club_mark_evening", club, evening, count(len(of), "game"), tables, tour))
    return lines


def of_game(game):
    """'Tisch 3 (kartenclub), tournament round 2' for a club's game, None for any other."""
    mark = game.get("club")
    if not mark:
        return None
    text = say("club_mark_table", mark["table"] or "?", mark["club"])
    if mark["round"] is not None:
        text += say("club_mark_game_round", mark["round"])
    return text
