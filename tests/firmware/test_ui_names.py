# Short forms of names for narrow columns: every seat stays distinguishable, and a long name runs past.
from ui.names import short_names, window


def test_names_that_fit_stay_whole():
    assert short_names(["Anna", "Ben", "Cleo"], 6) == ["Anna", "Ben", "Cleo"]


def test_look_alike_names_keep_the_letters_that_tell_them_apart():
    forms = short_names(["Christina", "Christian", "Christoph"], 6)
    assert len(set(forms)) == 3 and all(len(f) <= 6 for f in forms)
    assert forms[0].endswith("na") and forms[1].endswith("an")


def test_two_teams_with_the_same_first_name_differ():
    forms = short_names(["Anna & Ben", "Anna & Cleo"], 6)
    assert forms[0] != forms[1] and forms[0].endswith("en") and forms[1].endswith("eo")


def test_a_cut_name_never_looks_like_another_seat():
    forms = short_names(["Anna", "Anna & Ben"], 4)
    assert forms[0] == "Anna" and forms[1] != "Anna"
    forms = short_names(["Anna &", "Anna & Cleo", "Ben"], 6)
    assert len(set(forms)) == 3


def test_ten_long_seats_all_differ_at_five_columns():
    names = ["Christina", "Christian", "Christoph", "Anna & Ben", "Anna & Cleo", "Maximilian",
             "Maximiliane", "Jo", "Ben", "Cleo"]
    forms = short_names(names, 5)
    assert len(set(forms)) == 10 and all(len(f) <= 5 for f in forms)


def test_a_long_name_runs_past_in_its_column():
    shown = [window("Christina", 6, step) for step in range(13)]
    assert shown[0] == "Christ" and shown[3] == "istina" and all(len(s) == 6 for s in shown)
    assert shown[12] == "Christ"  # round again after the name and a gap
    assert window("Ben", 6, 5) == "Ben"
