# Games to play in the simulator by key script, with what the core says they must end as.
#
# plan(n) makes n standard games of Anna, Ben and Cleo, or Anna and Ben (with
# three, the first begins with the worked example's round), each played until
# somebody reaches the target;
# script(games) is the key script that plays them all from power-on on a fresh
# flash; expected(games) replays them with tafel.Game: totals and winners.
import random

from tafel.game import Game

PLAYERS = ("Anna", "Ben", "Cleo")
TYPED = ("2 6 6 wait:1200 6 6 2 #", "2 2 3 3 6 6 #", "2 2 2 5 5 5 3 3 6 6 6 #")  # multi-tap names
WORKED = (0, (0, [7, 9, 20], [50, 3]))  # winner seat, hands: Anna goes out, Ben 36, Cleo 53


def plan(n, target=200, seats=3, seed=6, hands=(1, 60)):
    """[(target, [(winner seat, [hand per seat]), ...])]: every game is played to its end.
    With three seats the first game starts with the worked example's round."""
    rng = random.Random(seed)
    players = PLAYERS[:seats]
    games = []
    for g in range(n):
        game = Game(players, target=target)
        rounds = []
        while not game.finished:
            if g == 0 and not rounds and seats == 3:
                winner, row = WORKED[0], [0, 36, 53]
            else:
                winner = rng.randrange(seats)
                row = [0 if s == winner else rng.randint(*hands) for s in range(seats)]
            game.add_round({players[s]: row[s] for s in range(seats) if s != winner}, players[winner])
            rounds.append((winner, row))
        games.append((target, rounds))
    return games


def _round_keys(g, r, winner, hands):
    if g == 0 and r == 0 and hands == [0, 36, 53]:
        return "A D 3 6 D 5 0 B 3"  # the worked example exactly as the table types it (Wild + 3)
    seats = []
    for s, hand in enumerate(hands):
        seats.append("A" if s == winner else " ".join(str(hand)))
    return " D ".join(seats)


def script(games):
    """Keys that play `games` from the home screen of a fresh flash, each to its game-over screen and home."""
    lines = []
    for g, (target, rounds) in enumerate(games):
        lines.append("// game %d" % (g + 1))
        lines.append("1 D " + " ".join(str(target)) + " D")
        seats = len(rounds[0][1])
        for name in TYPED[:seats] if g == 0 else ["D #"] * seats:  # later games pick names from the roster
            lines.append("# " + ("# " + name if g == 0 else name))
        lines.append("D #")
        for r, (winner, hands) in enumerate(rounds):
            # check, save, and (but after the deciding round, which shows game over itself) the next round
            lines.append(_round_keys(g, r, winner, hands) + (" # #" if r == len(rounds) - 1 else " # # #"))
        lines.append("#")  # game over -> home
    return "\n".join(lines) + "\n"


def expected(games):
    """[(totals by name, winners)] per game, from the core."""
    out = []
    for target, rounds in games:
        players = PLAYERS[:len(rounds[0][1])]
        game = Game(players, target=target)
        for winner, hands in rounds:
            game.add_round({players[s]: hands[s] for s in range(len(players)) if s != winner}, players[winner])
        out.append((dict(game.totals()), game.winners()))
    return out
