# What a player's name may hold: letters the device draws, letters it shows in a plain form, and what it refuses.
from tafel.fold import FOLD_FROM, FOLD_TO
from tafel.names import DRAWN, drawable, folded, name_problem, undrawable


def test_ascii_and_the_german_letters_are_drawn_as_they_are():
    for name in ("Anna", "Özlem", "Jürgen", "Käthe", "Ärger", "Übel", "Strauß", "René", "O'Neil-Smith 2"):
        assert folded(name) is name and undrawable(name) == -1 and name_problem(name) is None
    assert all(drawable(ch) for ch in DRAWN)


def test_other_latin_letters_are_shown_in_their_plain_form():
    assert folded("Zoë") == "Zoe"
    assert folded("Łukasz") == "Lukasz"
    assert folded("Şükrü") == "Sükrü"  # ü is drawn, only Ş changes
    assert folded("Ørjan Å. Næss") == "Orjan A. Næss"  # æ has no one-letter form: kept, and refused below
    assert folded("Ana\u2019s") == "Ana's"
    for name in ("Zoë", "Łukasz", "Şükrü", "Çelik", "Dvořák", "Ștefan"):
        assert name_problem(name) is None and undrawable(name) == -1


def test_the_fold_table_is_one_letter_for_one_and_ends_in_letters_the_device_draws():
    assert len(FOLD_FROM) == len(FOLD_TO)
    for i in range(len(FOLD_FROM)):
        assert not drawable(FOLD_FROM[i]) and drawable(FOLD_TO[i])
        assert FOLD_FROM.find(FOLD_FROM[i]) == i  # each letter once


def test_a_character_without_a_plain_form_is_refused_with_its_place():
    assert undrawable("Næss") == 1
    code, message = name_problem("Ben 李")
    assert code == "name_bad" and "'李' at position 5" in message and "cannot show" in message
    assert name_problem("\u0391\u03bb\u03b5\u03be")[0] == "name_bad"  # Greek
    assert name_problem("Ben \U0001F642")[0] == "name_bad"


def test_a_name_read_back_from_a_record_keeps_what_it_had():
    assert name_problem("Næss", stored=True) is None


def test_one_length_for_every_side():
    assert name_problem("A" * 20) is None
    assert name_problem("A" * 21)[0] == "name_long"
