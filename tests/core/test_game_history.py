# Specification of changing the past: undo the last round, edit any round, end a game early.
import pytest

from tafel import Game, ScoreError


def three_rounds():
    game = Game(["Anna", "Ben", "Cleo"], target=300)
    game.add_round({"Ben": 36, "Cleo": 53}, "Anna")
    game.add_round({"Anna": 20, "Cleo": 5}, "Ben")
    game.add_round({"Anna": 7, "Ben": 8}, "Cleo")
    return game


def test_undo_takes_back_the_last_round():
    game = three_rounds()
    game.undo_round()
    assert len(game.rounds) == 2
    assert game.totals() == [("Anna", 89), ("Ben", 25), ("Cleo", 0)]
    assert game.dealer() == "Cleo"


def test_undo_then_add_reuses_the_round_slot():
    game = three_rounds()
    game.undo_round()
    game.add_round({"Anna": 1, "Ben": 1}, "Cleo")
    assert len(game.rounds) == 3
    assert game.rounds[2].hands == (1, 1, 0)
    assert game.totals() == [("Anna", 89), ("Ben", 25), ("Cleo", 2)]


def test_undo_with_no_rounds_is_refused():
    game = Game(["Anna", "Ben"])
    with pytest.raises(ScoreError, match="undo"):
        game.undo_round()


def test_undo_reopens_a_game_that_reached_its_target():
    game = Game(["Anna", "Ben"], target=100)
    game.add_round({"Ben": 120}, "Anna")
    assert game.finished
    game.undo_round()
    assert not game.finished
    assert game.winners() == []


def test_edit_recomputes_totals_from_the_rounds():
    game = three_rounds()
    game.edit_round(0, {"Anna": 10, "Cleo": 53}, "Ben")
    assert game.rounds[0].winner == "Ben"
    assert game.totals() == [("Anna", 0), ("Ben", 88), ("Cleo", 15)]


def test_edit_of_an_unknown_round_is_refused():
    game = three_rounds()
    with pytest.raises(ScoreError, match="round"):
        game.edit_round(3, {"Ben": 1, "Cleo": 1}, "Anna")
    with pytest.raises(ScoreError, match="round"):
        game.edit_round(-1, {"Ben": 1, "Cleo": 1}, "Anna")


def test_edit_with_bad_points_changes_nothing():
    game = three_rounds()
    before = game.totals()
    with pytest.raises(ScoreError):
        game.edit_round(1, {"Anna": -5, "Cleo": 5}, "Ben")
    assert game.totals() == before
    assert game.rounds[1].hands == (20, 0, 5)


def test_edit_that_would_end_the_game_before_later_rounds_is_refused():
    game = three_rounds()
    with pytest.raises(ScoreError, match="rounds after"):
        game.edit_round(0, {"Ben": 200, "Cleo": 153}, "Anna")
    assert game.totals() == [("Anna", 89), ("Ben", 25), ("Cleo", 15)]
    assert not game.finished


def test_editing_the_last_round_can_end_the_game():
    game = three_rounds()
    game.edit_round(2, {"Ben": 300, "Cleo": 0}, "Anna")
    assert game.finished
    assert game.winners() == ["Anna"]


def test_challenge_edit_that_eliminates_a_seat_playing_later_is_refused():
    game = Game(["Anna", "Ben", "Cleo"], "challenge", 100)
    game.add_round({"Ben": 10, "Cleo": 20}, "Anna")
    game.add_round({"Ben": 10, "Cleo": 20}, "Anna")
    with pytest.raises(ScoreError):
        game.edit_round(0, {"Ben": 100, "Cleo": 20}, "Anna")
    assert game.eliminated() == []


def test_the_table_can_end_a_game_early():
    game = three_rounds()
    game.finish()
    assert game.finished
    assert game.winners() == ["Anna"]
    with pytest.raises(ScoreError):
        game.add_round({"Ben": 1, "Cleo": 1}, "Anna")


def test_an_ended_game_keeps_its_rounds():
    game = three_rounds()
    game.finish()
    with pytest.raises(ScoreError, match="ended"):
        game.undo_round()
    with pytest.raises(ScoreError, match="ended"):
        game.edit_round(0, {"Ben": 1, "Cleo": 1}, "Anna")
    assert len(game.rounds) == 3


def test_ending_early_in_penalty_picks_the_lowest():
    game = Game(["Anna", "Ben"], "penalty")
    game.add_round({"Anna": 30, "Ben": 10}, None)
    game.finish()
    assert game.winners() == ["Ben"]


def test_ending_before_any_round_is_refused():
    game = Game(["Anna", "Ben"])
    with pytest.raises(ScoreError):
        game.finish()


def test_records_do_not_change_the_game_until_applied():
    game = three_rounds()
    rec = game.round_record({"Ben": 1, "Cleo": 2}, "Anna")
    game.edit_record(0, {"Ben": 1, "Cleo": 2}, "Anna")
    game.undo_record()
    game.finish_record()
    assert len(game.rounds) == 3
    assert game.totals() == [("Anna", 89), ("Ben", 25), ("Cleo", 15)]
    game.apply(rec)
    assert game.totals() == [("Anna", 92), ("Ben", 25), ("Cleo", 15)]
