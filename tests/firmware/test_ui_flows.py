# Whole games played by key presses on the simulated device (real drivers, real LittleFS).
# slow: the README's flows by keys on a whole device (about 8 s)
from uisim import ANNA, BEN, CLEO, device, new_game, power_cut, text


def worked_example(dev):
    new_game(dev)
    dev.play("A D 3 6 D 5 0 B 3")


def test_power_on_shows_the_home_menu():
    dev = device()
    assert dev.screen()[1] == "►1 Neues Spiel"
    assert dev.screen()[2] == " 2 (kein Spiel)"  # every entry keeps its digit
    assert dev.screen()[3] == " 3 Verlauf"


def test_worked_example_hint_line_shows_anna_89_before_saving():
    dev = device()
    worked_example(dev)
    screen = dev.screen()
    assert screen[-1] == "Anna +89"
    assert screen[1].split() == ["Anna", "Sieg", "0"]
    assert screen[3].split() == ["►Cleo", "50+3", "0"]


def test_worked_example_result_then_saved_standings():
    dev = device()
    worked_example(dev)
    dev.play("#")
    assert dev.screen()[0].startswith("Prüfen R1")
    assert dev.screen()[1].split() == ["►Anna", "+89", "89"]
    dev.play("#")
    screen = dev.screen()
    assert screen[0].startswith("Stand R1")
    assert screen[1].split()[:2] == ["Anna", "89"]
    assert screen[-1] == "Gespeichert"
    assert dev.errors == []


def test_a_saved_round_the_heap_cannot_replay_at_once_still_says_saved():
    # After hours of play the heap may refuse the game twice after a round is on flash (applying
    # it, then replaying it from flash): the screen must say what is true, "Gespeichert", and
    # show the game from flash once its screens let go of the old one, never "Nicht gesichert!".
    dev = device()
    worked_example(dev)
    dev.play("#")
    store, session = dev.app.store, dev.app.session
    refusals = [2]  # the replay fails twice (once, and once more after a collection), then fits

    def no_memory(*args):
        raise MemoryError("memory allocation failed")

    load = store.load_game

    def tight(game_id):
        if refusals[0]:
            refusals[0] -= 1
            raise MemoryError("memory allocation failed")
        return load(game_id)

    session.game.apply = no_memory
    store.load_game = tight
    dev.play("#")
    screen = dev.screen()
    assert screen[0].startswith("Stand R1") and screen[1].split()[:2] == ["Anna", "89"]
    assert screen[-1] == "Gespeichert"
    assert dev.errors == []


def test_a_saved_round_the_heap_never_replays_says_so_and_restarts_into_it():
    # If the heap refuses the game even after every screen let go, the device says the round is
    # saved and restarts (the game comes back from flash at boot); the flash keeps the round.
    dev = device()
    worked_example(dev)
    dev.play("#")
    store, session = dev.app.store, dev.app.session
    restarts = []
    dev.app.restart = lambda: restarts.append(True)

    def no_memory(*args):
        raise MemoryError("memory allocation failed")

    load = store.load_game
    session.game.apply = no_memory
    store.load_game = no_memory
    dev.play("#")
    assert len(restarts) == 1
    assert dev.screen()[-1] == "Gesichert,neu an"
    store.load_game = load
    assert len(load(session.game_id).rounds) == 1  # the round is on flash
    assert dev.errors == []


def test_standings_show_card_values_and_next_dealer():
    dev = device()
    worked_example(dev)
    dev.play("# # wait:3000")
    screen = dev.screen()
    # three seats leave room for the values below them; the dealer is marked all the time
    assert screen[1:7] == [" Anna         89", "►Ben           0", " Cleo          0",
                           "Ak 20 Fw 50", "+4 50 HT 40", "Bl 40"]
    shown = []
    for _ in range(3):  # the bottom row takes turns: dealer, then the keys (C at the top: a key, no move)
        shown.append(dev.screen()[-1])
        dev.play("C wait:3000")
    assert shown == ["#=Runde A=zurück", "B=Runden *=Menü", "Geber: Ben"]


def test_the_table_view_opens_when_the_standings_rest_and_any_key_acts_on_them():
    dev = device()
    worked_example(dev)
    dev.play("# # wait:4000")
    assert type(dev.app.screen).__name__ == "Standings"
    dev.play("wait:1000")  # five seconds without a key: the large digits for the whole table
    assert type(dev.app.screen).__name__ == "TableView"
    assert dev.screen()[-1] in ("Geber: Ben", "#=Runde *=Stand")
    dev.play("A")  # the standings' key: undo the round?
    assert "zurücknehmen?" in text(dev)
    dev.play("* wait:5000")  # no: the standings, and after a rest the table view again
    assert type(dev.app.screen).__name__ == "TableView"
    dev.play("*")  # * only gives the standings back
    assert type(dev.app.screen).__name__ == "Standings" and len(dev.app.session.game.rounds) == 1
    dev.play("wait:5000 #")  # from the table view, # starts the next round as on the standings
    assert dev.screen()[0].startswith("R2")
    assert dev.errors == []


def test_the_game_is_on_flash_after_a_power_cut():
    dev = device()
    worked_example(dev)
    dev.play("# #")
    dev = power_cut(dev)
    screen = dev.screen()
    assert screen[0].startswith("Stand R1")
    assert screen[1].split()[:2] == ["Anna", "89"]


def test_a_round_typed_but_not_saved_is_gone_after_a_power_cut():
    dev = device()
    worked_example(dev)
    dev.play("# #")
    dev.play("# D 1 0 D 2 0 A")  # round 2 typed, not saved
    dev = power_cut(dev)
    assert dev.screen()[0].startswith("Stand R1")
    assert dev.app.session.game.totals() == [("Anna", 89), ("Ben", 0), ("Cleo", 0)]


def test_missing_winner_is_asked_for_and_nothing_is_saved():
    dev = device()
    new_game(dev)
    dev.play("3 6 D 5 3 D 1 2 #")  # every seat has a hand: nobody went out
    assert dev.screen()[-1] == "Sieger? Taste A"
    assert len(dev.app.session.game.rounds) == 0


def test_hash_goes_on_to_the_next_seat_without_a_hand():
    dev = device()
    new_game(dev)
    dev.play("A D D 5 3 #")  # Anna won, Cleo typed first: # goes round the table to Ben
    assert dev.screen()[2].startswith("►Ben")
    dev.play("#")  # Ben has nothing yet and is the only one: the check says so
    assert dev.screen()[-1] == "Ben?"
    assert dev.screen()[2].startswith("►Ben")
    dev.play("3 6 #")  # every hand typed: # shows the result at once
    assert dev.screen()[0].startswith("Prüfe")
    assert len(dev.app.session.game.rounds) == 0


def test_the_one_seat_left_without_a_hand_is_offered_as_the_winner():
    dev = device()
    new_game(dev)
    dev.play("3 6 # 5 3 #")  # Anna 36, Ben 53, no winner marked: Cleo went out
    assert dev.screen()[0].startswith("Prüfe")
    assert dev.screen()[3].split() == ["Cleo", "+89", "89"]
    dev.play("*")  # back: Cleo is marked, nothing else changed
    assert dev.app.screen.winner == 2 and dev.app.screen.entry == ["36", "53", ""]
    dev.play("# #")
    assert dev.app.session.game.totals() == [("Anna", 0), ("Ben", 0), ("Cleo", 89)]


def test_a_typed_hand_is_never_dropped_by_the_winner_key():
    dev = device()
    new_game(dev)
    dev.play("4 5 A")
    assert dev.screen()[-1] == "Als Sieger? A"
    assert dev.app.screen.entry[0] == "45" and dev.app.screen.winner is None
    dev.play("D")  # any other key: the question is gone, the 45 stays
    assert dev.app.screen.entry[0] == "45" and dev.app.screen.winner is None
    dev.play("C A A")  # asked, then A again: Anna won after all
    assert dev.app.screen.entry[0] == "" and dev.app.screen.winner == 0


def test_star_deletes_within_the_seat_and_never_the_winner_mark():
    dev = device()
    new_game(dev)
    dev.play("A D 3 6 D 5")
    dev.play("* *")  # Cleo's 5, then Cleo has nothing: leave the round? (asked)
    assert "Runde verwerfen?" in text(dev)
    dev.play("*")  # no: the round stays as it was
    screen = dev.app.screen
    assert screen.entry == ["", "36", ""] and screen.winner == 0 and screen.cursor == 2
    dev.play("C * *")  # Ben's digits go, one by one, and nothing above him
    assert screen.entry == ["", "", ""] and screen.winner == 0 and screen.cursor == 1


def test_team_hands_are_added_with_the_plus_key():
    dev = device()
    team_a = "2 6 6 wait:1200 6 6 2 0 1 0 2 2 3 3 6 6 #"  # "Anna & Ben"
    team_b = "2 2 2 5 5 5 3 3 6 6 6 0 1 0 3 4 4 4 7 7 7 5 5 #"  # "Cleo & Dirk"
    new_game(dev, names=(team_a, team_b))
    dev.play("A D 3 6 B 5 3")
    assert dev.screen()[-1] == "Anna & Ben +89"  # the whole name where it fits
    dev.play("# #")
    assert dev.app.session.game.totals() == [("Anna & Ben", 89), ("Cleo & Dirk", 0)]


def test_undo_the_last_round_with_confirmation():
    dev = device()
    worked_example(dev)
    dev.play("# # A")
    assert "Runde 1" in text(dev) and "zurücknehmen?" in text(dev)
    dev.play("*")
    assert len(dev.app.session.game.rounds) == 1
    dev.play("A #")
    assert len(dev.app.session.game.rounds) == 0
    assert dev.screen()[-1] == "Zurückgenommen"
    dev = power_cut(dev)
    assert len(dev.app.session.game.rounds) == 0


def test_edit_a_past_round():
    dev = device()
    worked_example(dev)
    dev.play("# #")
    dev.play("# 1 0 D 2 0 D A # #")  # round 2: Cleo wins 30
    dev.play("B D #")  # rounds list, newest first: pick round 1
    assert dev.screen()[0].startswith("Runde ändern 1")
    dev.play("D * * 4 0 #")  # Ben held 40, not 36: every seat has its hand, # shows the result
    assert dev.screen()[1].split() == ["►Anna", "+93", "93"]  # the totals as they will be
    dev.play("#")
    game = dev.app.session.game
    assert game.totals() == [("Anna", 93), ("Ben", 0), ("Cleo", 30)]
    dev = power_cut(dev)
    assert dev.app.session.game.totals() == [("Anna", 93), ("Ben", 0), ("Cleo", 30)]


def test_penalty_game_to_the_end():
    dev = device()
    new_game(dev, names=(ANNA, BEN), variant_presses=1, target="A")
    assert dev.app.session.game.variant == "penalty"
    assert dev.app.session.game.target == 200
    dev.play("A D 1 2 0 # #")  # Anna out, Ben 120
    dev.play("# 3 0 D A # #")  # Ben out, Anna 30
    dev.play("# A D 9 0 # #")  # Ben 210: game over, Anna lowest
    game = dev.app.session.game
    assert game.finished and game.winners() == ["Anna"]
    screen = dev.screen()  # at once, without another key
    assert screen[0].startswith("Spielende") and screen[2].strip() == "Anna" and screen[3].strip() == "gewinnt!"


def test_challenge_game_to_the_end():
    dev = device()
    new_game(dev, names=(ANNA, BEN, CLEO), variant_presses=2, target="A")
    dev.play("A D 2 0 0 D 1 0 # #")  # Ben reaches 200: out
    game = dev.app.session.game
    assert game.eliminated() == ["Ben"]
    dev.play("#")
    assert [line[1:].split()[0] for line in dev.screen()[1:3]] == ["Anna", "Cleo"]  # Ben skipped
    dev.play("A D 1 9 5 # #")  # Cleo 205: the last two, Cleo first over the line
    assert game is dev.app.session.game
    assert game.finished and game.winners() == ["Anna"]


def test_names_typed_with_multi_tap_including_umlauts():
    dev = device()
    dev.play("1 D D # #")
    dev.play("5 8 8 8 8 7 7 7 4 3 3 6 6")
    assert dev.screen()[3].startswith("Jürgen")
    dev.play("#")
    assert "1 Jürgen" in text(dev)


def test_names_come_back_from_the_roster():
    dev = device()
    worked_example(dev)
    dev.play("# # * 1 D D #")  # home, new game, add player
    screen = text(dev)
    assert "Anna" in screen and "Ben" in screen and "Cleo" in screen
    dev.play("D #")  # take Anna
    assert "1 Anna" in text(dev)


def test_setup_refuses_a_single_player_and_duplicate_names():
    dev = device()
    dev.play("1 D D " + "# # " + ANNA + " # # " + ANNA)
    assert dev.screen()[-1] == "Name doppelt"
    dev.play("D #")
    assert dev.screen()[-1] == "Mind. 2 Spieler"
    assert dev.app.session.game is None


def test_wrong_keys_change_nothing():
    dev = device()
    home = dev.screen()
    dev.play("A B 0")
    assert dev.screen() == home
    worked_example(dev)
    before = dev.screen()
    dev.play("C C C")  # already on the first seat... after moving up from Cleo
    dev.play("D D")
    assert dev.screen()[3] == before[3]
    dev.play("# #")
    standings = dev.screen()
    dev.play("0 5 9")
    assert dev.screen()[:7] == standings[:7]
    assert dev.errors == []


def test_random_keys_never_crash_and_flash_matches_memory():
    import random

    dev = device()
    worked_example(dev)
    dev.play("# #")
    keys = ("0", "1", "2", "5", "9", "A", "B", "C", "D", "*", "#", "CW", "CCW", "PUSH")
    rng = random.Random(7) if hasattr(random, "Random") else None
    if rng is None:
        random.seed(7)
        pick = lambda: keys[random.getrandbits(8) % len(keys)]  # noqa: E731
    else:
        pick = lambda: rng.choice(keys)  # noqa: E731
    for _ in range(400):
        dev.play(pick())
    assert dev.errors == []
    game = dev.app.session.game
    totals = game.totals() if game is not None else None
    dev = power_cut(dev)
    again = dev.app.session.game
    if totals is not None and again is not None:
        assert again.totals() == totals


def test_a_hand_cannot_be_typed_beyond_what_one_seat_can_hold():
    dev = device()
    new_game(dev)
    dev.play("A D" + " 9 9 9 9 B" * 7 + " 9 9 9 9")  # 8 x 9999 would be 79992
    assert dev.errors == []
    # six full addends fit (59994); of the last two only 999 each (a fourth 9 was refused)
    assert dev.app.screen.entry[1].endswith("+999+999") and dev.screen()[2].split()[1] == "61992"  # the sum
    assert dev.screen()[-1] == "höchstens 65534"  # the refused fourth 9 says why
    dev.play("D C")
    assert dev.screen()[-1] == "Anna +%d" % (6 * 9999 + 999 + 999)
    dev.play("D 1 2 3 4 5")  # a fifth digit: one part has four at most, B starts another
    assert dev.screen()[-1] == "4 Ziffern, B=+" and dev.app.screen.entry[2] == "1234"


def test_game_over_shows_the_moment_the_deciding_round_is_saved_and_after_a_power_cut():
    dev = device()
    new_game(dev, target="A")  # 200: the first round ends it
    dev.play("A D 1 0 0 D 1 0 0 # #")
    assert dev.screen()[0] == "Spielende" and dev.screen()[2].strip() == "Anna"
    dev = power_cut(dev)  # before the table saw it: it comes back
    assert dev.screen()[0] == "Spielende" and dev.screen()[2].strip() == "Anna"
    dev.play("#")  # seen: home, and it stays seen
    assert dev.screen()[1] == "►1 Neues Spiel"
    dev = power_cut(dev)
    assert dev.screen()[1] == "►1 Neues Spiel" and dev.app.session.game is None
    assert dev.errors == []


def test_same_players_again_from_game_over_in_one_press():
    dev = device()
    new_game(dev, target="A")  # 200
    dev.play("A D 1 0 0 D 1 0 0 # # wait:3000")  # the notice "saved" gives the hint row back
    assert dev.screen()[0] == "Spielende" and dev.screen()[-1] == "A=nochmal #=Menü"
    old_id = dev.app.session.game_id
    dev.play("A")  # a new game: the same seats, variant and target; Ben deals round 1 now
    game = dev.app.session.game
    assert dev.app.session.game_id != old_id and len(game.rounds) == 0 and not game.finished
    assert game.players == ("Anna", "Ben", "Cleo") and game.target == 200 and game.variant == "standard"
    assert game.dealer() == "Ben"
    assert dev.screen()[0].startswith("R1") and "Ben" in dev.screen()[0]  # straight into round 1
    dev = power_cut(dev)  # the new game runs; the old one's end is not shown again
    assert dev.app.session.game.players == ("Anna", "Ben", "Cleo") and dev.screen()[0].startswith("Stand")
    assert dev.app.store.load_game(old_id).finished
    assert dev.errors == []


def test_same_players_again_keeps_the_house_values_and_the_variant():
    dev = device()
    dev.app.session.start(("Anna", "Ben"), "penalty", 100, {"wild": 60}, 1)
    dev.app.session.save_round({"Anna": [120]}, "Ben")
    dev.app.show_game()
    dev.play("wait:100")
    assert dev.screen()[0] == "Spielende"
    dev.play("A")
    game = dev.app.session.game
    assert game.variant == "penalty" and game.target == 100 and game.dealer() == "Anna"
    assert game.values == dev.app.store.load_game(dev.app.session.game_id).values
    from tafel.cards import RANKS
    assert game.values[RANKS.index("wild")] == 60


def test_ending_a_game_early_shows_game_over_at_once():
    dev = device()
    worked_example(dev)
    dev.play("# # B C # #")  # rounds, last entry "Spiel beenden?", yes
    assert dev.screen()[0] == "Spielende" and dev.screen()[2].strip() == "Anna"
    dev.play("*")  # back to the final standings
    dev.play("A")  # nothing to undo in an ended game: said in German, not the core's English
    assert dev.screen()[-1] == "Spiel beendet"
    assert dev.errors == []


def test_a_refused_edit_is_said_in_the_tables_language():
    dev = device()
    new_game(dev, target="A")  # 200
    dev.play("A D 5 0 D 5 0 # #")  # round 1: Anna 100
    dev.play("# A D 5 0 D 5 0 # #")  # round 2: Anna 200, over
    dev.play("* B D #")  # the final standings, the rounds, edit round 1
    dev.play("D 1 5 0 # # #")  # Ben held 150: the game would have ended a round earlier
    assert dev.screen()[-1] == "Ändert Spielende"
    dev.app.set_language("en")
    dev.play("#")
    assert dev.screen()[-1] == "Changes the end"
    assert dev.app.session.game.totals()[0] == ("Anna", 200)
    assert dev.errors == []


def test_typing_on_a_filled_hand_replaces_it():
    dev = device()
    worked_example(dev)
    dev.play("C 5 3")  # back on Ben's 36: the first digit starts afresh
    assert dev.screen()[2].split()[:2] == ["►Ben", "53"]
    dev.play("6")  # the next digits add to it
    assert dev.screen()[2].split()[:2] == ["►Ben", "536"]
    dev.play("D B 4")  # the + key keeps what is there: Cleo's 50+3 gets another part
    assert dev.screen()[3].split()[:2] == ["►Cleo", "=57"]
    assert dev.errors == []


def test_the_check_scrolls_through_ten_seats_with_its_place_shown():
    dev = device()
    names = ("Anna", "Ben", "Cleo", "Dirk", "Emil", "Fritz", "Gabi", "Hans", "Ida", "Jo")
    dev.app.session.start(names, "penalty", 500)
    dev.app.show_game()
    dev.play("#")
    dev.play(" D ".join(["1 %d" % s for s in range(10)]) + " #")
    assert dev.screen()[0] == "Prüfen R1   1/10"  # the place of the cursor
    assert dev.screen()[1].split() == ["►Anna", "+10", "10"]
    dev.play("D " * 9)
    screen = dev.screen()
    assert screen[0] == "Prüfen R1  10/10" and screen[6].split() == ["►Jo", "+19", "19"]
    dev.play("#")
    assert dev.app.session.game.total(0) == 10 and dev.app.session.game.total(9) == 19
    assert dev.errors == []
