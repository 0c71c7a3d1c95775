# Specification of the evening's leaderboard: wins, then points, per variant, across every table.
import pytest

from tafel_host.club import leaderboard


def game(players, totals, winners, variant="standard", ended_early=False):
    return {"players": players, "totals": totals, "winners": winners, "variant": variant,
            "ended_early": ended_early, "finished": True}


def ranked(games, order=leaderboard.DEFAULT):
    return [(r["place"], r["name"], r["wins"], r["points"], r["games"]) for r in leaderboard.rows(games, order)[0][1]]


def test_wins_rank_first_and_points_break_ties():
    games = [game(["Anna", "Ben"], [520, 300], ["Anna"]),
             game(["Cleo", "Dora"], [510, 100], ["Cleo"]),
             game(["Anna", "Cleo"], [200, 505], ["Cleo"])]
    assert ranked(games) == [(1, "Cleo", 2, 1015, 2), (2, "Anna", 1, 720, 2), (3, "Ben", 0, 300, 1),
                             (4, "Dora", 0, 100, 1)]


def test_in_minuspunkte_fewer_points_are_better():
    # One win each for Anna (120 + 80 = 200 points) and Cleo (90): Cleo's fewer points rank her first.
    games = [game(["Anna", "Ben", "Cleo"], [120, 510, 90], ["Cleo"], "penalty"),
             game(["Anna", "Ben"], [80, 500], ["Anna"], "penalty")]
    assert ranked(games) == [(1, "Cleo", 1, 90, 1), (2, "Anna", 1, 200, 2), (3, "Ben", 0, 1010, 2)]


def test_a_game_ended_early_is_won_by_nobody():
    games = [game(["Anna", "Ben"], [300, 100], ["Anna"], ended_early=True)]
    assert ranked(games) == [(1, "Anna", 0, 300, 1), (2, "Ben", 0, 100, 1)]


def test_players_equal_on_every_key_share_a_place():
    games = [game(["Anna", "Ben"], [500, 0], ["Anna"]), game(["Cleo", "Dora"], [500, 0], ["Cleo"])]
    assert [(r[0], r[1]) for r in ranked(games)] == [(1, "Anna"), (1, "Cleo"), (3, "Ben"), (3, "Dora")]


def test_the_order_is_configurable():
    games = [game(["Anna", "Ben"], [500, 450], ["Anna"]), game(["Ben", "Cleo"], [520, 0], ["Ben"]),
             game(["Anna", "Cleo"], [510, 10], ["Anna"])]
    assert [r[1] for r in ranked(games, ("points",))] == ["Anna", "Ben", "Cleo"]
    assert [r[1] for r in ranked(games, ("wins", "games"))] == ["Anna", "Ben", "Cleo"]
    assert leaderboard.parse_order("wins, points") == ("wins", "points")
    for bad in ("", "speed", "wins,wins"):
        with pytest.raises(ValueError):
            leaderboard.parse_order(bad)


def test_variants_are_never_added_together():
    games = [game(["Anna", "Ben"], [500, 0], ["Anna"]), game(["Anna", "Ben"], [50, 500], ["Anna"], "penalty")]
    assert [v for v, _ in leaderboard.rows(games)] == ["standard", "penalty"]
