# `tafel rules`: the rulebook on the laptop, legal plays with reasons, and +4 challenge verdicts (seeds/002).
import pytest

from tafel_host.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


# The rulebook


def test_rules_prints_every_section_in_english_by_default(capsys):
    code, lines, _ = run(capsys, "rules")
    assert code == 0
    for heading in ("Card values", "What cards do", "+4 challenge", "Two players", "Calling UNO", "Scoring to 500",
                    "Dealing", "Teams"):
        assert heading in lines
    text = "\n".join(lines)
    assert "Wild Draw 4" in text and "1400" in text and "1240" in text
    assert "draws 6 cards" in text and "Reverse acts as Skip" in text


def test_rules_in_german(capsys):
    code, lines, _ = run(capsys, "rules", "--lang", "de")
    assert code == 0
    assert "Kartenwerte" in lines and "Zu zweit" in lines
    text = "\n".join(lines)
    assert "zieht 6 Karten" in text and "Farbenwahl" in text


def test_rules_value_table_lists_the_default_values(capsys):
    _, lines, _ = run(capsys, "rules", "--section", "values")
    values = dict((line.rsplit(None, 1)[0].strip(), line.rsplit(None, 1)[1]) for line in lines[2:12])
    assert values["Skip"] == values["Reverse"] == values["Draw Two"] == "20"
    assert values["Wild"] == values["Wild Draw 4"] == "50"
    assert values["Shuffle Hands"] == values["Blank"] == "40"
    assert values["108 cards"] == "1240" and values["112 cards"] == "1400"


def test_one_section_only_and_the_lang_option_after_it(capsys):
    code, lines, _ = run(capsys, "rules", "--section", "two", "--lang", "de")
    assert code == 0
    assert lines[0] == "Zu zweit" and "Kartenwerte" not in lines


def test_the_uno_call_scoring_dealing_and_teams_in_german(capsys):
    code, lines, _ = run(capsys, "rules", "--lang", "de")
    assert code == 0
    for heading in ("UNO rufen", "Wertung bis 500", "Geben", "Im Team"):
        assert heading in lines
    text = " ".join(lines)
    assert "kostet es 2 Strafkarten" in text and "meist 500" in text and "Minuspunkte:" in text
    assert "Jeder erhält 7 Karten" in text and "Partner sitzen einander gegenüber" in text


def test_one_new_section_in_english(capsys):
    code, lines, _ = run(capsys, "rules", "--section", "uno")
    assert code == 0
    assert lines[:2] == ["Calling UNO", "-----------"]
    assert "draw 2 penalty cards" in " ".join(lines) and "Card values" not in lines
    _, lines, _ = run(capsys, "rules", "--section", "scoring")
    assert lines[0] == "Scoring to 500" and "lowest total wins" in " ".join(lines)


def test_no_printed_line_is_wider_than_a_terminal(capsys):
    for lang in ("de", "en"):
        _, lines, _ = run(capsys, "rules", "--lang", lang)
        assert max(len(line) for line in lines) <= 78


# Legal plays: seeds/002, "Ablage: Rot 6. Hand: Rot 3, Blau 6, Blau 3, Farbwahl. Erlaubt: 1, 2, 4."


def test_play_on_red_6_allows_red_3_blue_6_and_the_wild(capsys):
    code, lines, _ = run(capsys, "rules", "play", "red 6", "--hand", "red 3", "blue 6", "blue 3", "wild")
    assert code == 0
    assert lines[0] == "On red 6 (red in play):"
    assert "may be played: same colour" in lines[1]
    assert "may be played: same number" in lines[2]
    assert "may not: neither red nor 6" in lines[3]
    assert "may be played: fits any card" in lines[4]
    assert lines[-1] == "May be played: 1, 2, 4"


def test_the_same_position_in_german_words(capsys):
    code, lines, _ = run(capsys, "rules", "play", "Rot 6", "--hand", "Rot 3", "Blau 6", "Blau 3", "Farbwahl",
                         "--lang", "de")
    assert code == 0
    assert lines[-1] == "Erlaubt: 1, 2, 4"
    assert "nicht erlaubt: weder Rot noch 6" in lines[3]


def test_wild_draw_four_is_refused_while_the_hand_holds_the_colour(capsys):
    # seeds/002, hand A on red 6: red 3 blocks the +4; blue 6 fits by number only.
    _, lines, _ = run(capsys, "rules", "play", "red 6", "--hand", "red 3", "blue 6", "+4")
    assert "may not: the hand holds red 3, and red is in play" in lines[3]
    assert lines[-1] == "May be played: 1, 2"


def test_wild_draw_four_is_allowed_when_only_another_colours_number_matches(capsys):
    # seeds/002, hand B: green 3, blue 6, +4: the blue 6 is a matching number, not a red card.
    _, lines, _ = run(capsys, "rules", "play", "red 6", "--hand", "green 3", "blue 6", "+4")
    assert "may be played: no red card in the hand" in lines[3]
    assert lines[-1] == "May be played: 2, 3"


def test_on_a_wild_the_chosen_colour_counts(capsys):
    _, lines, _ = run(capsys, "rules", "play", "wild", "--colour", "blue", "--hand", "red 3", "blue 6", "Zieh Vier")
    assert lines[0] == "On wild (blue in play):"
    assert "may not: not blue" in lines[1]
    assert lines[-1] == "May be played: 2"


def test_nothing_fits_says_draw(capsys):
    _, lines, _ = run(capsys, "rules", "play", "red 6", "--hand", "blue 3", "green skip")
    assert lines[-1] == "May be played: none, draw a card"


# +4 challenges: seeds/002 says a bluff makes the player of the +4 draw four, else the challenger draws six.


def test_hand_a_held_red_so_the_plus_four_was_a_bluff_and_its_player_draws_four(capsys):
    code, lines, _ = run(capsys, "rules", "challenge", "red 6", "--hand", "red 3", "blue 6", "+4")
    assert code == 0
    assert lines[0] == "Colour in play before the +4: red"
    assert lines[2] == "The hand held red: red 3."
    assert lines[3] == "Bluff!"
    assert "draws 4 cards" in lines[4] and "challenger plays on" in lines[4]


def test_hand_b_held_no_red_so_the_challenger_draws_six(capsys):
    code, lines, _ = run(capsys, "rules", "challenge", "red", "--hand", "green 3", "blue 6", "+4")
    assert code == 0
    assert lines[2] == "No red card in that hand."
    assert lines[3] == "Honest"
    assert "challenger draws 6 cards" in lines[4]


def test_a_challenge_in_german(capsys):
    _, lines, _ = run(capsys, "rules", "--lang", "de", "challenge", "Rot 6", "--hand", "Grün 3", "Blau 6", "Zieh Vier")
    assert lines[3] == "Ehrlich" and "Zweifler zieht 6 Karten" in lines[4]
    _, lines, _ = run(capsys, "rules", "--lang", "de", "challenge", "rot", "--hand", "Rot 3", "Blau 6", "Zieh Vier")
    assert lines[3] == "Bluff!" and "zieht selbst 4 Karten" in lines[4]


def test_a_plus_four_played_on_a_wild_takes_the_colour_chosen_with_it(capsys):
    code, lines, _ = run(capsys, "rules", "challenge", "wild", "--colour", "green", "--hand", "green 1", "+4")
    assert code == 0 and lines[3] == "Bluff!"


# Bad input: exit 2 with a clear message, nothing on standard output


def test_an_unknown_card_is_named_with_exit_2(capsys):
    code, lines, err = run(capsys, "rules", "play", "red 6", "--hand", "red 3", "purple 2")
    assert code == 2 and lines == []
    assert err.startswith("tafel: ") and "purple" in err


def test_an_unknown_colour_in_a_challenge_is_named_with_exit_2(capsys):
    code, lines, err = run(capsys, "rules", "challenge", "violet", "--hand", "red 3")
    assert code == 2 and lines == [] and "violet" in err


def test_a_black_card_in_play_without_its_colour_is_refused(capsys):
    code, lines, err = run(capsys, "rules", "challenge", "wild", "--hand", "red 3", "+4")
    assert code == 2 and lines == [] and "--colour" in err


def test_a_missing_hand_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["rules", "play", "red 6"])
    assert exit_.value.code == 2
    assert "--hand" in capsys.readouterr().err


def test_an_unknown_language_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["rules", "--lang", "fr"])
    assert exit_.value.code == 2


# tafel points takes the names players use


def test_points_take_german_and_english_names_of_several_words(capsys):
    code, lines, _ = run(capsys, "points", "rot Zieh Zwei", "Zieh Vier", "blue draw two", "Farbenwahl")
    assert code == 0
    assert [line.split()[-1] for line in lines] == ["20", "50", "20", "50", "140"]
    assert lines[0].startswith("rot Zieh Zwei")
