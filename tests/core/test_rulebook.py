# The rulebook (tafel.rulebook): both languages alike, card names the parser knows, lines that fit 16 columns.
import pytest

from tafel import Game, rulebook
from tafel.cards import DEFAULT_VALUES, hand_points, parse_card, rank_code
from tafel.referee import judge_wild4

BOOKS = (rulebook.book("de"), rulebook.book("en"))
TEXTS = ("VALUES", "CARDS", "CHALLENGE", "TWO", "UNO", "SCORING", "DEALING", "TEAMS", "PICK", "ASK", "HOUSE",
         "AGAIN", "TRY")


def _all_texts(book):
    texts = [getattr(book, name) for name in TEXTS]
    for name in ("MENU", "TITLES", "NAMES", "COLOURS", "YES_NO", "BLUFF", "HONEST"):
        texts.extend(getattr(book, name))
    return texts


def test_both_languages_have_the_same_parts():
    for book in BOOKS:
        assert len(book.MENU) == 9 and len(book.TITLES) == len(rulebook.SECTIONS) == 8
        assert len(book.NAMES) == 7 and len(book.COLOURS) == 4
        assert len(book.YES_NO) == 2 and len(book.BLUFF) == 2 and len(book.HONEST) == 2


def test_an_unknown_language_is_refused():
    with pytest.raises(ValueError):
        rulebook.book("fr")


def test_the_card_names_of_the_rulebook_are_names_the_parser_knows():
    for book in BOOKS:
        for i in range(7):
            assert rank_code(book.NAMES[i]) == 10 + i, book.NAMES[i]
        for colour in range(4):
            assert parse_card("%s 7" % book.COLOURS[colour]) == (colour, 7)


def test_no_word_is_longer_than_the_small_screen():
    for book in BOOKS:
        for text in _all_texts(book):
            for word in text.replace("\n", " ").split():
                assert len(word) <= 16, word


def test_titles_leave_room_for_a_position_mark_and_menu_entries_for_the_cursor():
    for book in BOOKS:
        for title in book.TITLES + (book.CHECK,) + book.BLUFF[:1] + book.HONEST[:1]:
            assert len(title) <= 10, title
        for entry in book.MENU + book.COLOURS + book.YES_NO:
            assert len(entry) <= 15, entry
        for line in (book.AGAIN, book.TRY):
            assert len(line) <= 16, line


def test_sections_come_with_their_titles():
    assert rulebook.section("de", "two")[0] == "Zu zweit"
    assert rulebook.section("en", "cards")[0] == "Cards"
    for lang in rulebook.LANGS:
        for name in rulebook.SECTIONS:
            title, text = rulebook.section(lang, name)
            assert title and len(text) > 80


def test_the_challenge_says_four_for_a_bluff_and_six_for_an_honest_player():
    # seeds/002: the player of a bluffed +4 draws four, else the challenger six.
    de = rulebook.section("de", "challenge")[1]
    assert "Leger zieht selbst 4 Karten" in de and "Zweifler zieht 6 Karten" in de
    en = rulebook.section("en", "challenge")[1]
    assert "+4 draws the 4 cards" in en and "challenger draws 6 cards" in en


def test_two_players_reverse_acts_as_skip():
    assert "Retour wirkt wie Aussetzen" in rulebook.section("de", "two")[1]
    assert "Reverse acts as Skip" in rulebook.section("en", "two")[1]


def _flat(lang, name):
    return rulebook.section(lang, name)[1].replace("\n", " ")


def test_a_forgotten_uno_call_costs_two_cards_if_caught_before_the_next_turn():
    # seeds 000, 002, 003, 004: two cards, once the next player has begun nobody may claim them.
    de = _flat("de", "uno")
    assert "vorletzten Karte ist UNO zu rufen" in de
    assert "ehe der folgende Spieler loslegt, kostet es 2 Strafkarten" in de and "ohne Strafe" in de
    en = _flat("en", "uno")
    assert "second-to-last card, call UNO" in en
    assert "before the next player starts a turn, draw 2 penalty cards" in en and "no penalty" in en


def test_scoring_goes_to_500_and_explains_minuspunkte_in_both_languages():
    # seeds 000 and 003: the round's winner takes the others' cards, first to 500 wins; in the other
    # count everybody adds their own cards and, once somebody reaches 500, the lowest total wins.
    de = _flat("de", "scoring")
    assert "den Wert aller Karten, die den anderen übrig bleiben" in de and "(meist 500)" in de
    assert "Minuspunkte: Jeder schreibt sich den Wert der eigenen Resthand an" in de and "kleinste Summe gewinnt" in de
    en = _flat("en", "scoring")
    assert "points of every card still in the others' hands" in en and "usually 500" in en
    assert "Minuspunkte" in en and "cards left in their own hand" in en and "lowest total wins" in en


def test_the_scoring_example_is_what_the_card_values_and_the_core_give():
    skip, wild = hand_points(["red 7", "green skip"]), hand_points(["wild"])
    assert (skip, wild) == (27, 50)
    assert "Ben holds a 7 and a Skip (27), Cleo a Wild (50): the winner scores 77." in _flat("en", "scoring")
    assert "Ben hat eine 7 und ein Aussetzen (27), Cleo eine Farbenwahl (50): Der Sieger erhält 77." in \
        _flat("de", "scoring")
    game = Game(["Anna", "Ben", "Cleo"])
    game.add_round({"Ben": skip, "Cleo": wild}, "Anna")
    assert list(game.totals()) == [("Anna", 77), ("Ben", 0), ("Cleo", 0)]
    penalty = Game(["Anna", "Ben", "Cleo"], "penalty")
    penalty.add_round({"Ben": skip, "Cleo": wild}, "Anna")
    assert list(penalty.totals()) == [("Anna", 0), ("Ben", 27), ("Cleo", 50)]


def test_dealing_says_how_many_cards_who_deals_first_and_who_deals_next():
    # seeds 000, 001, 003: the highest card deals, seven cards each, left of the dealer begins.
    de = _flat("de", "dealing")
    assert "wer die höchste Zahl hat, gibt als Erster" in de and "erhält 7 Karten" in de and "Links vom Geber geht es los" in de
    assert "Jede neue Runde gibt der linke Nachbar des letzten Gebers" in de
    en = _flat("en", "dealing")
    assert "the highest number deals" in en and "gets 7 cards" in en and "left of the dealer starts" in en
    assert "Each new round the deal passes to the left of the last dealer" in en
    game = Game(["Anna", "Ben", "Cleo"])  # as the core keeps it: the deal passes to the next seat
    game.add_round({"Ben": 3, "Cleo": 4}, "Anna")
    assert game.dealer() == "Ben"


def test_teams_sit_opposite_and_play_as_one_seat():
    # seeds 000 and 004: partners opposite, one going out ends the round for both.
    de = _flat("de", "teams")
    assert "Partner sitzen einander gegenüber" in de and "(Anna & Ben)" in de and "beide Hände" in de
    en = _flat("en", "teams")
    assert "Partners sit opposite each other" in en and "(Anna & Ben)" in en and "both partners' hands" in en


def test_values_are_the_default_table_and_the_deck_totals():
    lines = rulebook.value_lines("de")
    assert lines[0] == ("0-9", "Zahlwert")
    assert lines[1:8] == [("Aussetzen", "20"), ("Retour", "20"), ("Zieh Zwei", "20"), ("Farbenwahl", "50"),
                          ("Zieh Vier", "50"), ("Handtausch", "40"), ("Blanko", "40")]
    assert lines[8:] == [("108 Karten", "1240"), ("112 Karten", "1400")]
    for label, points in rulebook.value_lines("en")[1:8]:
        assert int(points) == DEFAULT_VALUES[rank_code(label)]


def test_house_values_are_shown_card_by_card():
    table = list(DEFAULT_VALUES)
    table[7] = 70
    table[15] = 50
    lines = rulebook.value_lines("en", tuple(table))
    assert lines[7] == ("7", "70") and len(lines) == 19
    assert ("Shuffle Hands", "50") in lines
    assert lines[-2:] == [("108 cards", "1744"), ("112 cards", "1914")]  # eight 7s worth 63 more, swap 10


def test_verdicts_name_who_draws_how_many():
    bluff = rulebook.verdict("de", judge_wild4(["rot 3", "blau 6", "+4"], "rot"), 0)
    assert bluff == ("Bluff!", "Der Leger hatte Rot und zieht selbst 4 Karten. Der Zweifler spielt normal weiter.")
    honest = rulebook.verdict("en", judge_wild4(["green 3", "blue 6", "+4"], "red"), 0)
    assert honest[0] == "Honest" and "challenger draws 6 cards" in honest[1]


def test_wrap_breaks_at_spaces_and_keeps_every_word():
    text = "Zieh Vier: Farbe ansagen; der Nächste zieht 4 Karten und setzt aus."
    lines = rulebook.wrap(text, 16)
    assert lines == ["Zieh Vier: Farbe", "ansagen; der", "Nächste zieht 4", "Karten und setzt", "aus."]
    assert " ".join(lines) == text


def test_wrap_starts_a_line_at_each_newline_and_cuts_a_word_too_long():
    assert rulebook.wrap("a b\nc", 16) == ["a b", "c"]
    assert rulebook.wrap("abcdefghij", 4) == ["abcd", "efgh", "ij"]
    assert rulebook.wrap("", 16) == [""]


def test_every_text_wraps_within_16_and_30_columns():
    for book in BOOKS:
        for text in _all_texts(book):
            for width in (16, 30):
                for line in rulebook.wrap(text, width):
                    assert len(line) <= width, line


def test_a_pair_puts_the_value_flush_right():
    assert rulebook.pair("Zieh Vier", "50", 16) == "Zieh Vier     50"
    assert rulebook.pair("Shuffle Hands", "40", 16) == "Shuffle Hands 40"
    assert rulebook.pair("a very long label here", "1400", 16) == "a very long 1400"
    for lang in rulebook.LANGS:
        for label, points in rulebook.value_lines(lang):
            assert len(label) + 1 + len(points) <= 16, label
