# The referee: legal plays, Wild Draw Four challenges and turn order (CPython + MicroPython).
import pytest

from tafel.errors import CardError, ScoreError
from tafel.referee import judge_wild4, legal_plays, next_seat, turn_effect

# Legal plays


def test_a_card_matches_by_colour_or_number_and_a_wild_always():
    assert legal_plays("red 6", ["red 3", "blue 6", "blue 3", "wild"]) == [0, 1, 3]


def test_wild_draw_four_is_blocked_by_a_card_of_the_active_colour():
    assert legal_plays("red 6", ["red 3", "blue 6", "wild4"]) == [0, 1]


def test_wild_draw_four_is_not_blocked_by_another_colours_matching_number():
    assert legal_plays("red 6", ["green 3", "blue 6", "wild4"]) == [1, 2]


def test_wild_draw_four_is_not_blocked_by_black_cards():
    assert legal_plays("red 6", ["wild", "wild4", "swap", "blank", "wild4"]) == [0, 1, 2, 3, 4]


def test_a_symbol_matches_any_colour_of_the_same_symbol():
    hand = ["green 2", "red skip", "red 2", "blue reverse", "yellow draw2"]
    assert legal_plays("green skip", hand) == [0, 1]


def test_draw_two_is_played_on_its_colour_or_on_another_draw_two():
    hand = ["blue draw2", "red draw2", "yellow draw2"]
    assert legal_plays("blue draw2", hand) == [0, 1, 2]
    assert legal_plays("blue 5", hand) == [0]


def test_on_a_reverse_any_reverse_or_any_card_of_its_colour_fits():
    assert legal_plays("yellow reverse", ["green reverse", "green 1", "yellow 9"]) == [0, 2]


def test_swap_and_blank_cards_are_playable_at_any_time():
    assert legal_plays("blue 4", ["swap", "red 1", "blank"]) == [0, 2]


def test_an_empty_hand_has_no_legal_play():
    assert legal_plays("red 6", []) == []


def test_nothing_fits_gives_an_empty_list():
    assert legal_plays("red 6", ["blue 3", "green 7", "yellow skip"]) == []


def test_after_a_wild_only_the_chosen_colour_counts():
    hand = ["red 3", "blue 6", "green 3", "wild"]
    assert legal_plays("wild", hand, color="blue") == [1, 3]


def test_a_black_top_card_matches_nothing_by_rank():
    # A +4 on a +4 still needs the colour test: same rank is no excuse.
    assert legal_plays("wild4", ["wild4", "green 1", "red 2"], color="green") == [1]
    assert legal_plays("wild4", ["wild4", "red 2"], color="green") == [0]


def test_wild_draw_four_after_a_wild_is_blocked_by_the_chosen_colour():
    assert legal_plays("wild", ["yellow 2", "wild4"], color="yellow") == [0]
    assert legal_plays("wild", ["blue 2", "wild4"], color="yellow") == [1]


def test_a_black_top_card_without_a_chosen_colour_accepts_any_card():
    hand = ["red 3", "blue skip", "wild4", "swap"]
    assert legal_plays("wild", hand) == [0, 1, 2, 3]


def test_the_chosen_colour_is_ignored_on_a_coloured_top_card():
    assert legal_plays("red 6", ["blue 3", "red 3"], color="blue") == [1]


def test_german_card_and_colour_names_are_understood():
    hand = ["Rot 3", "Blau 6", "Blau 3", "Farbwahl"]
    assert legal_plays("Rot 6", hand) == [0, 1, 3]
    assert legal_plays("grün aussetzen", ["gelb aussetzen", "grün 4", "zieh4"]) == [0, 1]
    assert legal_plays("farbwahl", ["gelb 1", "rot 1"], color="gelb") == [0]


def test_card_and_colour_names_are_case_insensitive():
    assert legal_plays("RED 6", ["Red 3", "BLUE 6", "Wild4"]) == [0, 1]
    assert legal_plays("Wild", ["blue 1", "GRÜN 2"], color="GRÜN") == [1]


def test_a_bad_card_in_the_hand_is_named_in_the_error():
    with pytest.raises(CardError, match="purple"):
        legal_plays("red 6", ["red 3", "purple 6"])


def test_a_bad_top_card_is_named_in_the_error():
    with pytest.raises(CardError, match="jolly"):
        legal_plays("jolly", ["red 3"])


def test_a_bad_colour_word_is_named_in_the_error():
    with pytest.raises(CardError, match="pink"):
        legal_plays("wild", ["red 3"], color="pink")


def test_a_colour_must_be_a_colour_word_not_a_card():
    with pytest.raises(CardError, match="unknown colour"):
        legal_plays("wild", ["red 3"], color="red 3")
    with pytest.raises(CardError, match="colour"):
        legal_plays("wild", ["red 3"], color=0)


def test_a_hand_given_as_one_text_is_refused():
    with pytest.raises(CardError, match="list of cards"):
        legal_plays("red 6", "red 3")


# Wild Draw Four challenge


def test_a_challenge_against_a_player_holding_the_active_colour_finds_a_bluff():
    assert judge_wild4(["red 3", "blue 6", "wild4"], "red") == ("bluff", "player", 4)


def test_a_challenge_against_an_honest_player_makes_the_challenger_draw_six():
    assert judge_wild4(["green 3", "blue 6", "wild4"], "red") == ("honest", "challenger", 6)


def test_another_colours_matching_number_does_not_make_a_bluff():
    # The top was red 6: the blue 6 would have been playable, yet the +4 was legal.
    assert judge_wild4(["blue 6", "yellow 6", "wild4"], "red") == ("honest", "challenger", 6)


def test_black_cards_do_not_make_a_bluff():
    hand = ["wild4", "wild", "swap", "blank", "wild4"]
    assert judge_wild4(hand, "blue") == ("honest", "challenger", 6)


def test_the_wild_draw_four_itself_is_not_a_card_of_the_colour():
    assert judge_wild4(["wild4"], "green") == ("honest", "challenger", 6)
    assert judge_wild4(["green skip"], "green") == ("bluff", "player", 4)


def test_a_challenge_understands_german_and_any_case():
    assert judge_wild4(["Gelb 2", "Zieh4"], "GELB") == ("bluff", "player", 4)
    assert judge_wild4(["grün 2", "+4"], "Grün") == ("bluff", "player", 4)
    assert judge_wild4(["rot 2", "+4"], "blau") == ("honest", "challenger", 6)


def test_a_challenge_with_a_bad_colour_or_card_is_refused():
    with pytest.raises(CardError, match="violet"):
        judge_wild4(["red 3"], "violet")
    with pytest.raises(CardError, match="orange"):
        judge_wild4(["orange 3"], "red")


# Turn order


def test_skip_makes_the_next_player_lose_the_turn():
    assert turn_effect("red skip", 4) == (0, True, False)


def test_reverse_turns_the_direction_with_three_or_more_players():
    assert turn_effect("blue reverse", 3) == (0, False, True)


def test_with_two_players_reverse_acts_as_skip():
    assert turn_effect("blue reverse", 2) == (0, True, False)


def test_draw_two_makes_the_next_player_draw_two_and_lose_the_turn():
    assert turn_effect("green draw2", 5) == (2, True, False)


def test_wild_draw_four_makes_the_next_player_draw_four_and_lose_the_turn():
    assert turn_effect("wild4", 3) == (4, True, False)
    assert turn_effect("+4", 2) == (4, True, False)


def test_number_cards_wild_swap_and_blank_do_nothing_to_the_turn_order():
    for card in ("red 7", "wild", "swap", "blank"):
        assert turn_effect(card, 4) == (0, False, False)


def test_turn_effects_understand_german_names():
    assert turn_effect("Rot Retour", 2) == (0, True, False)
    assert turn_effect("gelb zieh2", 3) == (2, True, False)


def test_play_passes_to_the_next_seat_in_the_current_direction():
    assert next_seat(0, 4, 1, "red 5") == (1, 1)
    assert next_seat(3, 4, 1, "wild") == (0, 1)
    assert next_seat(0, 4, -1, "red 5") == (3, -1)


def test_a_drawn_and_passed_turn_moves_on_one_seat():
    assert next_seat(2, 3, 1, None) == (0, 1)


def test_skip_passes_over_the_next_seat():
    assert next_seat(0, 4, 1, "red skip") == (2, 1)
    assert next_seat(1, 4, -1, "red skip") == (3, -1)


def test_reverse_turns_play_back_the_other_way():
    assert next_seat(1, 4, 1, "red reverse") == (0, -1)
    assert next_seat(0, 3, -1, "red reverse") == (1, 1)


def test_with_two_players_reverse_skip_and_draws_let_the_player_go_again():
    for card in ("red reverse", "red skip", "red draw2", "wild4"):
        assert next_seat(1, 2, 1, card) == (1, 1)


def test_after_a_draw_card_the_drawing_player_is_passed_over():
    assert next_seat(2, 5, 1, "green draw2") == (4, 1)
    assert next_seat(0, 5, -1, "wild4") == (3, -1)


def test_bad_seat_counts_are_refused():
    for seats in (1, 11, 0, "4", True):
        with pytest.raises(ScoreError, match="seats"):
            turn_effect("red 5", seats)


def test_bad_seat_or_direction_is_refused():
    with pytest.raises(ScoreError, match="seat"):
        next_seat(4, 4, 1, "red 5")
    with pytest.raises(ScoreError, match="seat"):
        next_seat(-1, 4, 1, "red 5")
    with pytest.raises(ScoreError, match="direction"):
        next_seat(0, 4, 0, "red 5")
    with pytest.raises(ScoreError, match="direction"):
        next_seat(0, 4, True, "red 5")


def test_a_bad_card_in_the_turn_order_is_named_in_the_error():
    with pytest.raises(CardError, match="hop"):
        next_seat(0, 4, 1, "red hop")
