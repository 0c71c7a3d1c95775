# Statistics per player over a list of games (export dicts, e.g. History.games()), one variant at a time.
#
#   games       games the player sat in
#   wins        games the player won by the variant's rule (a shared win counts for each
#               winner); a game the table ended early is won by nobody, whoever led
#   win rate    wins / games decided (finished, not ended early) the player sat in
#               (None before any)
#   points/round  the player's scores summed over every round they had a hand in,
#               divided by those rounds. In standard games only the round's
#               winner scores, so this is "what a round brings in" (higher is
#               better); in penalty and challenge games it is the average hand
#               (lower is better). So the variants are never averaged together:
#               by_variant() splits the games, and each table is of one variant.
#   best comeback  in a game the player won, the largest deficit to the leader
#               after any round; the best of those over all games. The leader is
#               the highest total in standard games and the lowest in penalty and
#               challenge games (among the seats still in play), so the deficit
#               is how far the eventual winner was behind. 0 = led or shared the
#               lead all game: no comeback.
# Players are matched by name across games and devices ("Anna" is one person).
from operator import add

from .. import lang

VARIANTS = ("standard", "penalty", "challenge")  # the order of the tables


def higher_is_better(variant):
    """Whether a higher total (and more points per round) is better in this variant."""
    return variant == "standard"


def ended_early(game):
    """The table ended the game before anybody reached the target: nobody won it."""
    return bool(game.get("ended_early"))


def won(game, name):
    """Whether `name` won `game` by its rule (not merely led when the table ended it)."""
    return name in game["winners"] and not ended_early(game)


def by_variant(games):
    """[(variant, its games)] for the variants present, standard first."""
    known = [v for v in VARIANTS if any(g["variant"] == v for g in games)]
    other = sorted({g["variant"] for g in games} - set(VARIANTS))
    return [(v, [g for g in games if g["variant"] == v]) for v in known + other]


def running_totals(game):
    """Totals per seat after each round: a list of lists, one per round."""
    totals = [0] * len(game["players"])
    out = []
    for rnd in game["rounds"]:
        totals = list(map(add, totals, rnd["scores"]))
        out.append(totals)
    return out


def deficits(game, seat):
    """How far `seat` was behind the leader after each round (0 when leading)."""
    low_wins = not higher_is_better(game["variant"])
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
    if not won(game, player):
        return 0
    return max(deficits(game, game["players"].index(player)), default=0)


class PlayerStats:
    def __init__(self, name):
        self.name = name
        self.games = 0
        self.finished = 0  # decided: finished and not ended early
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
    """PlayerStats by name, most wins first (then win rate, points per round, name). Give it games of one
    variant (by_variant): points per round of different variants mean opposite things."""
    players = {}
    for game in games:
        decided = game["finished"] and not ended_early(game)
        rounds, seats = game["rounds"], len(game["players"])
        # per seat its hands and scores over the rounds: transposed in C (a year of games is a million cells)
        hands_of = list(zip(*[r["hands"] for r in rounds])) or [()] * seats
        scores_of = list(zip(*[r["scores"] for r in rounds])) or [()] * seats
        for seat, name in enumerate(game["players"]):
            hands, scores = hands_of[seat], scores_of[seat]
            stats = players.get(name)
            if stats is None:
                stats = players[name] = PlayerStats(name)
            stats.games += 1
            if decided:
                stats.finished += 1
                if won(game, name):
                    stats.wins += 1
            out = hands.count(None)
            stats.rounds += len(hands) - out
            stats.points += sum(scores) if not out else sum(s for h, s in zip(hands, scores) if h is not None)
            gained = comeback(game, name)
            if gained > stats.comeback:
                stats.comeback = gained
                stats.comeback_game = "%s:%d" % (game.get("device", "?"), game["id"])
    better = 1 if all(higher_is_better(g["variant"]) for g in games) else -1

    def rank(s):  # most wins, best win rate, then the better points per round, then the name
        ppr = s.points_per_round
        return (-s.wins, -(s.win_rate or 0), ppr is None, -better * (ppr or 0), s.name.lower())
    return sorted(players.values(), key=rank)


def heading(variant):
    """What a variant's table is: its name, how it scores, and whether higher or lower is better."""
    key = "variant_" + variant
    try:
        return lang.say(key)
    except KeyError:
        return variant


def table(stats):
    """Rows of text for a report: header first."""
    rows = [tuple(lang.say(k) for k in ("col_player", "col_games", "col_wins", "col_win_rate",
                                          "col_points_round", "col_comeback"))]
    for s in stats:
        rows.append((
            s.name, str(s.games), str(s.wins),
            "-" if s.win_rate is None else "%.0f %%" % (100 * s.win_rate),
            "-" if s.points_per_round is None else lang.number(s.points_per_round),
            "-" if not s.comeback else lang.say("comeback_in", s.comeback, s.comeback_game),
        ))
    return rows


def summary(games):
    """'5 games (3 finished, 1 ended early), 14 rounds, 1 evening' in the current language."""
    finished = sum(1 for g in games if g["finished"] and not ended_early(g))
    early = sum(1 for g in games if ended_early(g))
    state = lang.say("n_finished", finished) + (lang.say("n_ended_early", early) if early else "")
    return lang.say("summary", lang.count(len(games), "game"), state,
                    lang.count(sum(len(g["rounds"]) for g in games), "round"),
                    lang.count(len({g.get("evening") for g in games}), "evening"))


def result(game):
    """How a game came out, in words: won by ..., ended early (who led), or not finished."""
    leaders = " & ".join(game["winners"])
    if ended_early(game):
        return lang.say("ended_early_leading", leaders) if leaders else lang.say("ended_early")
    if game["winners"]:
        return lang.say("won_by", leaders)
    return lang.say("not_finished")
