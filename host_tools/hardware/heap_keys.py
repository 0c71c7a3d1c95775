# The keys of the heap scenarios (make heap, bench/device_heap.py, tests/host/heap_scenarios.py) and
# of `tafel calibrate`, which plays the same ones on a real board (calibrate.py): each scenario a list
# of (keys, check), a line of key names (and wait:<ms>) and a function of the screen's text after
# it, or None. The checks are the simulator's; a board's calibration presses the keys only.

NAMES = ("2 6 6 wait:1200 6 6 2", "2 2 3 3 6 6", "2 2 2 5 5 5 3 3 6 6 6", "3 2 6 6 2", "3 3 6 4 4 4 5 5 5",
         "3 3 3 7 7 7 4 4 4 8 9 9 9 9", "4 8 8 7 7 7 7", "4 4 2 6 6 wait:1200 6 6 2", "4 4 4 3 2", "5 2 6 6")
ROUNDS = 300


def evening_keys():
    """[(keys, check)]: each a line of keys and a function of the screen's text after it (or None)."""
    steps = [("1 D 9 9 9 9 9 D", None)]  # home: new game, target 99999, down to "+ player"
    for typed in NAMES:
        steps.append(("# # " + typed + " #", None))
    # ten seats: the cursor is on "at most 10", where "+ player" was; start is one further down
    steps.append(("D #", lambda text: text[0].startswith(("R1 ", "Runde 1 "))))
    seed = 12345
    for r in range(ROUNDS):
        keys, seed = round_keys(r, 10, seed)
        steps.append(((" " if r == 0 else "# ") + keys, None))
    steps[-1] = (steps[-1][0], lambda text: text[0].startswith("Stand R%d" % ROUNDS))
    # the table rests: the large digits come up (ten seats; on a small display in pages that take turns)
    steps.append(("wait:6000 wait:4000", lambda text: text[0].startswith("Stand R%d" % ROUNDS)))
    # edit round 299 (rounds list, newest first): the first seat's hand 5; every seat has a hand, so
    # # shows the result at once; save
    steps.append(("B D # * * 5 # #", lambda text: text[0].startswith("Stand R%d" % ROUNDS)))
    steps.append(("A #", lambda text: text[0].startswith("Stand R%d" % (ROUNDS - 1))))  # undo round 300
    # end the game (the rounds list's last entry, confirmed): game over shows at once
    steps.append(("B C # #", lambda text: text[0].strip() == "Spielende"))
    steps.append(("# 1 D D # D # # D # # D # D #", lambda text: text[0].startswith("R1")))  # game two, from the roster
    steps.append(("A D 3 6 D 5 0 # #", lambda text: text[0].startswith("Stand R1")))
    steps.append(("# 1 0 D A D 2 0 # #", lambda text: text[0].startswith("Stand R2")))
    return steps


def round_keys(r, seats, seed):
    """(keys, next seed): round r's entry from its first seat to saved, the seat r % seats out (A), the
    others' hands drawn from `seed` (0 to 60 points)."""
    keys = []
    for s in range(seats):
        if s == r % seats:
            keys.append("A")
        else:
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            keys.append(" ".join(str((seed >> 16) % 61)))
        keys.append("D" if s < seats - 1 else "#")
    return " ".join(keys) + " #", seed


# The club evening's table: six players of four letters (the hub seats them in an order of its own;
# as wide as each other, every seating makes the same records' sizes), from home the Wi-Fi network
# "tafel" with no password, home again (the club's tests' network).
CLUB_PLAYERS = ("Anna", "Bert", "Cleo", "Dora", "Emil", "Finn")
CLUB_SEATS = len(CLUB_PLAYERS)
CLUB_WLAN = "4 C C C # 8 2 3 3 3 wait:1200 3 3 5 5 5 # # # * *"


def _has(*words):
    """A check: every word somewhere on the screen."""
    return lambda text: all(any(w in row for row in text) for w in words)


# A standard game to 200 for Anna, Ben and Cleo and one round (tests/host/simupdate.py's GAME).
GAME_KEYS = ("1 D A D # # 2 6 6 wait:1200 6 6 2 # # # 2 2 3 3 6 6 # # # 2 2 2 5 5 5 3 3 6 6 6 # D # "
             "A D 3 6 D 5 0 B 3 # #")


def tour_keys():
    """[(keys, check)]: every short flow once, on any board (the checks look for words, not rows)."""
    return [
        (GAME_KEYS, _has("Anna", "89")),
        ("wait:6000", _has("Anna")),  # five seconds at rest: the table view's large digits
        ("* B", _has("Runden")),  # back to the standings, then the rounds list
        ("* * 5", _has("Regeln")),  # home, the rules: every page of the first two chapters
        ("# D D D D D D D D * D # D D D D D D * *", _has("Tafel")),
        ("4 #", _has("Settings", "English")),  # the language during the game: English
        ("D # D # *", _has("New game")),  # display sleep 5 min, contrast bright; home
        ("2", _has("Anna", "89")),  # the game goes on, in English
        ("* 4 #", _has("Einstellungen", "Deutsch")),  # and back to German
        ("D B D B * 1 D D D D D #", _has("Kartenwerte")),  # settings back; a new game's card values
        ("D D D D D D D D D D D D D D D D # * * 2", _has("Anna")),  # every value, kept; the game again
        ("# A D 2 0 D 5 # #", _has("Anna", "114")),  # round two
        ("B C # #", _has("Spielende", "Anna")),  # the game ends
        ("# 4 #", _has("Settings", "English")),  # the language after the game: English
        ("* 3", _has("History")),  # the history
        ("# D D D D *", _has("History")),  # a game's page, scrolled, back
        ("# # # #", _has("History")),  # its menu, delete, confirmed: the list, empty
        ("* 4 #", _has("Einstellungen", "Deutsch")),  # German again
    ]
