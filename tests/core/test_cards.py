# Specification of card texts and their points (tafel.cards), for CPython and MicroPython.
import pytest

from tafel import CardError, card_points, deck_total, hand_points
from tafel.cards import parse_card, value_table


def test_number_cards_are_worth_their_face_value():
    for n in range(10):
        assert card_points("red %d" % n) == n


def test_action_cards_are_worth_twenty():
    assert card_points("blue skip") == 20
    assert card_points("green reverse") == 20
    assert card_points("yellow draw2") == 20


def test_wild_cards_are_worth_fifty():
    assert card_points("wild") == 50
    assert card_points("wild4") == 50


def test_swap_and_blank_are_worth_forty():
    assert card_points("swap") == 40
    assert card_points("blank") == 40


def test_worked_example_hands():
    assert hand_points(["red 7", "blue 9", "green draw2"]) == 36
    assert hand_points(["wild", "yellow 3"]) == 53


def test_empty_hand_is_worth_nothing():
    assert hand_points([]) == 0


def test_german_words_name_the_same_cards():
    assert parse_card("rot 7") == parse_card("red 7")
    assert parse_card("grün aussetzen") == parse_card("green skip")
    assert parse_card("gruen retour") == parse_card("green reverse")
    assert parse_card("gelb zieh2") == parse_card("yellow draw2")
    assert parse_card("blau +2") == parse_card("blue draw2")
    assert parse_card("farbwahl") == parse_card("wild")
    assert parse_card("zieh4") == parse_card("+4") == parse_card("wild4")
    assert parse_card("handtausch") == parse_card("swap")
    assert parse_card("blanko") == parse_card("blank")


def test_card_text_is_case_insensitive_including_umlauts():
    assert parse_card("GRÜN AUSSETZEN") == parse_card("green skip")
    assert parse_card("Red Draw2") == parse_card("red draw2")
    assert parse_card("  WILD4  ") == parse_card("wild4")


def test_unknown_colour_is_named_in_the_error():
    with pytest.raises(CardError, match="purple"):
        card_points("purple 7")


def test_unknown_rank_is_named_in_the_error():
    with pytest.raises(CardError, match="seven"):
        card_points("red seven")


def test_unknown_single_word_is_named_in_the_error():
    with pytest.raises(CardError, match="jolly"):
        card_points("jolly")


def test_a_card_in_play_needs_its_colour():
    # The referee needs the colour of a coloured card; its points do not.
    with pytest.raises(CardError, match="colour"):
        parse_card("7")
    with pytest.raises(CardError, match="colour"):
        parse_card("skip")
    assert parse_card("7", need_colour=False) == (None, 7)
    assert parse_card("skip", need_colour=False) == (None, 10)


def test_black_card_with_a_colour_is_refused():
    with pytest.raises(CardError, match="wild"):
        card_points("red wild")


def test_card_errors_are_value_errors():
    with pytest.raises(ValueError):
        card_points("")
    with pytest.raises(ValueError):
        card_points(7)


def test_a_bad_card_in_a_hand_is_named():
    with pytest.raises(CardError, match="pink"):
        hand_points(["red 1", "pink 2"])


def test_house_values_change_what_cards_are_worth():
    values = {"swap": 50, "blank": 50, "wild": 25}
    assert card_points("swap", values) == 50
    assert card_points("farbwahl", values) == 25
    assert card_points("wild4", values) == 50
    assert hand_points(["blank", "red 5"], values) == 55


def test_house_values_accept_german_rank_words_and_numbers():
    table = value_table({"aussetzen": 15, "7": 70})
    assert table[10] == 15
    assert table[7] == 70


def test_house_values_must_be_whole_non_negative_numbers():
    with pytest.raises(CardError):
        value_table({"wild": -1})
    with pytest.raises(CardError):
        value_table({"wild": "50"})
    with pytest.raises(CardError):
        value_table({"wild": True})


def test_house_values_name_known_ranks_only():
    with pytest.raises(CardError, match="jolly"):
        value_table({"jolly": 10})
    with pytest.raises(CardError, match="'-1'"):
        value_table({"-1": 10})


def test_deck_totals():
    assert deck_total(cards=108) == 1240
    assert deck_total() == 1400
    assert deck_total({"swap": 50, "blank": 50}) == 1440


# The names players say, German and English, one word or several


def test_multi_word_names_of_the_action_cards():
    assert parse_card("rot Zieh Zwei") == parse_card("red draw2")
    assert parse_card("blue draw two") == parse_card("blue draw 2") == parse_card("blue draw2")
    assert parse_card("gelb zieh 2") == parse_card("yellow draw2")
    assert parse_card("Zieh Vier") == parse_card("Zieh 4") == parse_card("wild4")
    assert parse_card("wild draw four") == parse_card("Wild Draw 4") == parse_card("+4")
    assert parse_card("Hände tauschen") == parse_card("shuffle hands") == parse_card("swap")


def test_each_name_from_the_tables_rules_means_its_card():
    names = {
        "Farbenwahl": "wild", "Farbwahl": "wild", "wild": "wild",
        "Zieh Vier": "wild4", "Zieh-Vier": "wild4", "wild draw four": "wild4",
        "Handtausch": "swap", "Blanko": "blank",
        "rot Aussetzen": "red skip", "rot Aussetzer": "red skip", "red skip": "red skip",
        "grün Retour": "green reverse", "green Richtungswechsel": "green reverse",
        "green reverse": "green reverse",
    }
    for name in names:
        assert parse_card(name) == parse_card(names[name]), name


def test_names_with_a_colour_word_in_any_case():
    assert parse_card("ROT ZIEH ZWEI") == (0, 12)
    assert parse_card("Blue Draw Two") == (3, 12)
    assert parse_card("GRÜN zieh-zwei") == (2, 12)


def test_german_colours_may_be_said_as_adjectives():
    assert parse_card("rote 7") == parse_card("red 7")
    assert parse_card("grüner Aussetzer") == parse_card("green skip")
    assert parse_card("blaue Zieh Zwei") == parse_card("blue draw2")
    assert parse_card("gelbes Retour") == parse_card("yellow reverse")


def test_points_of_the_names_players_use():
    hand = ["rot Zieh Zwei", "Zieh Vier", "blue draw two", "Farbenwahl"]
    assert hand_points(hand) == 20 + 50 + 20 + 50
    assert hand_points(["Handtausch", "Blanko", "grün Aussetzen"]) == 100


def test_house_values_take_multi_word_names():
    table = value_table({"Zieh Zwei": 25, "wild draw four": 60})
    assert table[12] == 25 and table[14] == 60


def test_a_multi_word_colour_card_in_play_still_needs_its_colour():
    with pytest.raises(CardError, match="needs a colour"):
        parse_card("Zieh Zwei")
    with pytest.raises(CardError, match="needs a colour"):
        parse_card("draw two")


def test_a_black_card_named_in_words_takes_no_colour():
    with pytest.raises(CardError, match="black card"):
        card_points("rot Zieh Vier")


def test_an_unknown_word_in_a_long_name_is_named():
    with pytest.raises(CardError, match="'fünf'"):
        card_points("Zieh fünf")
    with pytest.raises(CardError, match="'three'"):
        card_points("wild draw three")
    with pytest.raises(CardError, match="'purple'"):
        card_points("purple draw two")
    with pytest.raises(CardError, match="'drei'"):
        card_points("rot zieh drei")


def test_a_colour_alone_is_no_card():
    with pytest.raises(CardError, match="'blue' is a colour"):
        card_points("blue")


def test_an_empty_card_is_refused_clearly():
    with pytest.raises(CardError, match="empty"):
        card_points("   ")


# Points never depend on a card's colour, so the colour may be left out


def test_points_of_a_card_without_its_colour():
    assert card_points("7") == card_points("blau 7") == 7
    assert card_points("0") == 0
    assert card_points("Zieh Zwei") == card_points("draw two") == 20
    assert card_points("Aussetzen") == card_points("skip") == 20
    assert card_points("Retour") == card_points("Richtungswechsel") == card_points("reverse") == 20
    assert hand_points(["7", "9", "Zieh Zwei"]) == 36


def test_every_name_of_the_readme_the_rules_screen_and_the_seeds_has_points():
    names = {
        # black cards, with or without the word black
        "Joker": 50, "Farbwahl": 50, "Farbenwahl": 50, "Farbwahlkarte": 50, "wild": 50, "Wild Card": 50,
        "schwarz +4": 50, "schwarze Farbwahl": 50, "black wild": 50,
        "Zieh Vier": 50, "Zieh-Vier": 50, "Zieh-Vier-Karte": 50, "Zieh vier mit Farbwahl": 50,
        "Zieh Vier Farbwahl": 50, "wild draw four": 50, "Wild Draw 4": 50, "+4": 50,
        "Handtausch": 40, "Hände tauschen": 40, "Shuffle Hands": 40, "Wild Shuffle Hands": 40,
        "Blanko": 40, "Blankokarte": 40, "beschreibbarer Joker": 40, "Blank": 40,
        # coloured action cards, with or without colour
        "Zieh Zwei": 20, "+2": 20, "draw two": 20, "Draw 2": 20, "rot Zieh Zwei": 20,
        "Aussetzen": 20, "Einmal Aussetzen": 20, "Aussetzer": 20, "skip": 20, "grünes Aussetzen": 20,
        "Retour": 20, "Retour-Karte": 20, "Richtungswechsel": 20, "Richtungswechselkarte": 20,
        "reverse": 20, "blue reverse": 20,
    }
    for name in names:
        assert card_points(name) == names[name], name


def test_black_is_said_only_of_black_cards():
    assert parse_card("schwarz +4") == parse_card("wild4") == (None, 14)
    assert parse_card("schwarze Farbwahl") == (None, 13)
    with pytest.raises(CardError, match="'schwarz 7'"):
        card_points("schwarz 7")
    with pytest.raises(CardError, match="'schwarz' is a colour"):
        card_points("schwarz")


def test_joker_is_the_wild_card_and_the_writable_joker_the_blank():
    assert parse_card("Joker") == parse_card("wild")
    assert parse_card("beschreibbarer Joker") == parse_card("blank")


def test_a_number_no_card_has_is_an_error_naming_the_card():
    for card in ("blue -1", "red 10", "blau 12", "10", "-1", "rot -7"):
        with pytest.raises(CardError, match="'%s'" % card):
            card_points(card)


def test_a_hyphen_joins_words_but_never_signs_a_number():
    assert parse_card("Zieh-Vier") == parse_card("Zieh Vier")
    assert parse_card("blau-7") == parse_card("blau 7")
    with pytest.raises(CardError, match="-1"):
        parse_card("blue -1")
    with pytest.raises(CardError):
        parse_card("blue 1-")


def test_house_values_still_apply_to_cards_named_without_colour():
    values = {"Zieh Zwei": 25, "Joker": 40, "7": 70}
    assert card_points("Zieh Zwei", values) == 25
    assert card_points("Farbwahl", values) == 40
    assert hand_points(["7", "blau 7", "Aussetzen"], values) == 70 + 70 + 20


def test_the_name_tables_agree_on_where_the_black_cards_begin():
    from tafel import cardnames, cards

    # (on MicroPython a private const() is no module attribute: there the behaviour says it)
    assert getattr(cardnames, "_FIRST_BLACK", cards.FIRST_BLACK) == cards.FIRST_BLACK == cards.RANKS.index("wild")
    assert parse_card("wild")[1] == cards.FIRST_BLACK and parse_card("red draw2")[1] == cards.FIRST_BLACK - 1
    with pytest.raises(CardError):
        parse_card("red wild")  # from FIRST_BLACK on, a card has no colour
    assert parse_card("red draw2", False) == (0, cards.FIRST_BLACK - 1)


def test_house_values_by_their_rank_words_need_no_card_names():
    # The device keeps a game's house values by tafel.cards.RANKS' words: reading them back never
    # loads the name tables (tafel.cardnames), which would take heap on the device.
    import sys

    sys.modules.pop("tafel.cardnames", None)
    table = value_table({"wild": 60, "skip": 25, "7": 70})
    assert table[13] == 60 and table[10] == 25 and table[7] == 70
    assert "tafel.cardnames" not in sys.modules
    assert value_table({"Farbwahl": 60})[13] == 60  # any other word: the tables read it
    assert "tafel.cardnames" in sys.modules
