# Specification of the standard variant: the Sieger scores every other hand.
import pytest

from tafel import Game, ScoreError


def worked_example():
    game = Game(["Anna", "Ben", "Cleo"])
    game.add_round({"Ben": 36, "Cleo": 53}, "Anna")
    return game


def test_new_game_defaults():
    game = Game(["Anna", "Ben"])
    assert game.variant == "standard"
    assert game.target == 500
    assert game.players == ("Anna", "Ben")
    assert len(game.rounds) == 0
    assert game.totals() == [("Anna", 0), ("Ben", 0)]
    assert not game.finished
    assert game.winners() == []


def test_worked_example_anna_scores_89():
    game = worked_example()
    assert game.totals() == [("Anna", 89), ("Ben", 0), ("Cleo", 0)]


def test_preview_shows_what_the_sieger_gets_before_saving():
    game = Game(["Anna", "Ben", "Cleo"])
    assert game.preview({"Ben": 36, "Cleo": 53}, "Anna") == 89
    assert game.totals() == [("Anna", 0), ("Ben", 0), ("Cleo", 0)]


def test_preview_works_on_hands_typed_so_far():
    game = Game(["Anna", "Ben", "Cleo"])
    assert game.preview({}, "Anna") == 0
    assert game.preview({"Ben": 36}, "Anna") == 36
    assert game.preview({"Ben": 36, "Cleo": [50, 3]}, None) == 89


def test_preview_refuses_bad_points():
    game = Game(["Anna", "Ben"])
    with pytest.raises(ScoreError):
        game.preview({"Ben": -3}, "Anna")


def test_round_records_winner_hands_and_scores():
    rnd = worked_example().rounds[0]
    assert rnd.winner == "Anna"
    assert rnd.hands == (0, 36, 53)
    assert rnd.scores == (89, 0, 0)


def test_the_winner_may_be_given_a_hand_of_zero():
    game = Game(["Anna", "Ben"])
    game.add_round({"Anna": 0, "Ben": 12}, "Anna")
    assert game.totals() == [("Anna", 12), ("Ben", 0)]


def test_team_hands_are_added():
    game = Game(["Anna & Ben", "Cleo & Dirk"])
    game.add_round({"Cleo & Dirk": [36, 53]}, "Anna & Ben")
    assert game.totals() == [("Anna & Ben", 89), ("Cleo & Dirk", 0)]


def test_first_to_reach_the_target_wins():
    game = Game(["Anna", "Ben"], target=200)
    game.add_round({"Ben": 150}, "Anna")
    assert not game.finished
    game.add_round({"Anna": 60}, "Ben")
    game.add_round({"Ben": 50}, "Anna")
    assert game.finished
    assert game.winners() == ["Anna"]
    assert game.totals() == [("Anna", 200), ("Ben", 60)]


def test_short_and_long_targets():
    assert Game(["A", "B"], target=200).target == 200
    assert Game(["A", "B"], target=1000).target == 1000
    assert Game(["A", "B"], target=333).target == 333


def test_no_round_after_the_game_ended():
    game = Game(["Anna", "Ben"], target=100)
    game.add_round({"Ben": 100}, "Anna")
    with pytest.raises(ScoreError, match="over"):
        game.add_round({"Ben": 1}, "Anna")
    assert len(game.rounds) == 1


def test_standard_needs_a_winner():
    game = Game(["Anna", "Ben"])
    with pytest.raises(ScoreError, match="winner"):
        game.add_round({"Anna": 3, "Ben": 4}, None)


def test_dealer_passes_to_the_left_each_round():
    game = Game(["Anna", "Ben", "Cleo"])
    assert game.dealer() == "Anna"
    game.add_round({"Ben": 1, "Cleo": 1}, "Anna")
    assert game.dealer() == "Ben"
    game.add_round({"Ben": 1, "Cleo": 1}, "Anna")
    assert game.dealer() == "Cleo"
    game.add_round({"Ben": 1, "Cleo": 1}, "Anna")
    assert game.dealer() == "Anna"


def test_ten_seats_three_hundred_rounds():
    names = ["P%d" % i for i in range(10)]
    game = Game(names, target=100000)
    for r in range(300):
        winner = names[r % 10]
        game.add_round(dict((n, 3) for n in names if n != winner), winner)
    assert len(game.rounds) == 300
    assert game.totals()[0] == ("P0", 30 * 27)
    assert sum(t for _, t in game.totals()) == 300 * 27
