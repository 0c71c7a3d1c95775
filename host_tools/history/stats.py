# Statistics per player over a list of games (export dicts, e.g. History.games()).
#
#   games       games the player sat in
#   wins        finished games the player won (a shared win counts for each winner)
#   win rate    wins / finished games the player sat in (None before any finished)
#   points/round  the player's scores summed over every round they had a hand in,
#               divided by those rounds. In standard games only the round's
#               winner scores, so this is "what a round brings in"; in penalty
#               and challenge games it is the average hand (lower is better).
#   best comeback  in a game the player won, the largest deficit to the leader
#               after any round; the best of those over all games. The leader is
#               the highest total in standard games and the lowest in penalty and
#               challenge games (among the seats still in play), so the deficit
#               is how far the eventual winner was behind. 0 = led or shared the
#               lead all game: no comeback.
# Players are matched by name across games and devices ("Anna" is one person).


def running_totals(game):
    """Totals per seat after each round: a list of lists, one per round."""
    totals = [0] * len(game["players"])
    out = []
    for rnd in game["rounds"]:
        totals = [t + s for t, s in zip(totals, rnd["scores"])]
        out.append(totals)
    return out


def deficits(game, seat):
    """How far `seat` was behind the leader after each round (0 when leading)."""
    low_wins = game["variant"] != "standard"
    out = []
    for totals in running_totals(game):
        if low_wins:
            in_play = [t for t in totals if game["variant"] != "challenge" or t < game["target"]]
            best = min(in_play) if in_play else min(totals)
            out.append(max(0, totals[seat] - best))
        else:
            out.append(max(0, max(totals) - totals[seat]))
    return out


def comeback(game, player):
    """The largest deficit `player` overcame to win `game`; 0 if they did not win or never trailed."""
    if player not in game["winners"]:
        return 0
    return max(deficits(game, game["players"].index(player)), default=0)


class PlayerStats:
    def __init__(self, name):
        self.name = name
        self.games = 0
        self.finished = 0
        self.wins = 0
        self.rounds = 0
        self.points = 0
        self.comeback = 0
        self.comeback_game = None  # "device:id" of the best comeback

    @property
    def win_rate(self):
        return self.wins / self.finished if self.finished else None

    @property
    def points_per_round(self):
        return self.points / self.rounds if self.rounds else None


def per_player(games):
    """PlayerStats by name, most wins first (then win rate, then name)."""
    players = {}
    for game in games:
        for seat, name in enumerate(game["players"]):
            stats = players.setdefault(name, PlayerStats(name))
            stats.games += 1
            if game["finished"]:
                stats.finished += 1
                if name in game["winners"]:
                    stats.wins += 1
            for rnd in game["rounds"]:
                if rnd["hands"][seat] is not None:
                    stats.rounds += 1
                    stats.points += rnd["scores"][seat]
            gained = comeback(game, name)
            if gained > stats.comeback:
                stats.comeback = gained
                stats.comeback_game = "%s:%d" % (game.get("device", "?"), game["id"])
    return sorted(players.values(), key=lambda s: (-s.wins, -(s.win_rate or 0), s.name.lower()))


def table(stats):
    """Rows of text for a report: header first."""
    rows = [("player", "games", "wins", "win rate", "points/round", "best comeback")]
    for s in stats:
        rows.append((
            s.name, str(s.games), str(s.wins),
            "-" if s.win_rate is None else "%.0f %%" % (100 * s.win_rate),
            "-" if s.points_per_round is None else "%.1f" % s.points_per_round,
            "-" if not s.comeback else "%d (game %s)" % (s.comeback, s.comeback_game),
        ))
    return rows
