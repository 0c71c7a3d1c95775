# The history on the simulated device: the list, one game's rounds, continuing
# slow: histories of many games (about 5 s)
# an unfinished game, deleting with a confirmation, damaged games, wrong keys.
from uisim import device, new_game, power_cut

WORKED = "A D 3 6 D 5 0 B 3 # #"  # Anna Sieger, Ben 36, Cleo 50+3: saved, Anna +89
HISTORY = "3"  # from the home menu: its entries keep their digits


def home(dev):
    dev.app.home()
    dev.play("wait:10")


def history(dev):
    home(dev)
    dev.play(HISTORY)
    assert dev.screen()[0].startswith("Verlauf")


def finished_and_running(dev):
    """Game 1: the worked example to a target of 50 (over); game 2: the worked example, running."""
    new_game(dev, target="5 0")
    dev.play(WORKED + " # #")  # standings -> game over -> home
    new_game(dev)
    dev.play(WORKED)


def played(dev, players=("Anna", "Ben", "Cleo"), target=500):
    # A game started and one round saved through the session (as the UI does), for speed.
    session = dev.app.session
    session.start(players, "standard", target)
    session.save_round({players[1]: [36], players[2]: [53]}, players[0])


def flip(disk, path, pos):
    # In both copies (the store keeps a twin beside /data): damage it cannot make good.
    for d in (disk, disk.sibling("twin")):
        data = bytearray(d.read(path))
        data[pos] ^= 0x20
        f = d.open(path, "wb")
        f.write(data)
        f.close()


def body(dev):
    return dev.screen()[1:-1]


def chosen(dev):
    """The number of the game under the cursor: its rows are the date row (with ►) and "#n ..." below."""
    screen = dev.screen()
    for row in range(1, len(screen) - 2):
        if screen[row].startswith("►"):
            return int(screen[row + 1].split()[0][1:])
    return None


def test_the_list_shows_a_finished_and_a_running_game_newest_first():
    dev = device()
    finished_and_running(dev)
    history(dev)
    screen = dev.screen()
    assert screen[0] == "Verlauf"
    # two rows a game: the date (none: the clock was never set) and the rounds; number, players, mark
    assert screen[1:5] == ["►ohne Datum   R1", " #2 An Be Cl   >", " ohne Datum   R1", " #1 An Be Cl   ="]
    assert screen[-1] == "läuft gerade"
    dev.play("D")
    assert chosen(dev) == 1 and dev.screen()[-1] == "fertig"
    dev.play("CCW")  # the rotary scrolls too
    assert chosen(dev) == 2
    assert dev.errors == []


def test_a_game_shows_its_totals_winner_and_the_worked_example_round():
    dev = device()
    finished_and_running(dev)
    history(dev)
    dev.play("D #")
    screen = dev.screen()
    assert screen[0] == "#1"
    assert screen[1].split() == ["UNO", "Ziel", "50"]
    assert screen[2].split() == ["fertig", "R1"]
    assert screen[3] == "nicht exportiert"
    assert screen[4].split() == ["Sieger", "Anna"]
    assert screen[5] == "Stand" and screen[6].split() == ["Anna", "89"]
    dev.play("B")  # to the first round
    screen = dev.screen()
    assert screen[1].split() == ["Runde", "1", "Anna"]
    assert screen[2].split() == ["Anna", "Sieg", "+89"]
    assert screen[3].split() == ["Ben", "36", "0"]
    assert screen[4].split() == ["Cleo", "53", "0"]
    dev.play("A")
    assert dev.screen()[1].split() == ["UNO", "Ziel", "50"]
    dev.play("D D D")  # row by row
    assert dev.screen()[1].split() == ["Sieger", "Anna"]
    dev.play("*")
    assert chosen(dev) == 1
    assert dev.errors == []


def test_the_dates_show_once_the_clock_is_set():
    dev = device()
    dev.clock.set_time(1741780800)  # 2025-03-12 12:00 UTC
    played(dev)
    history(dev)
    assert dev.screen()[1:3] == ["►12.03        R1", " #1 An Be Cl   >"]
    dev.play("#")
    assert dev.screen()[0] == "#1    12.03.2025"


def test_a_long_game_pages_round_by_round():
    dev = device()
    session = dev.app.session
    session.start(("Anna", "Ben"), "standard", 100000)
    for r in range(12):
        session.save_round({"Ben": [r + 1]}, "Anna")
    history(dev)
    dev.play("#")
    dev.play("B " * 12)  # the header of the round jumped to is the first row
    screen = dev.screen()
    assert screen[1].split() == ["Runde", "12", "Anna"]
    assert screen[3].split() == ["Ben", "12", "0"] and screen[4] == ""
    dev.play("B D D")  # no further round, nothing further down
    assert dev.screen() == screen
    dev.play("C")
    assert dev.screen()[1].split() == ["Ben", "11", "0"]
    dev.play("A A")
    assert dev.screen()[1].split() == ["Runde", "10", "Anna"]
    assert dev.errors == []


def test_a_long_list_scrolls():
    dev = device()
    for n in range(9):
        played(dev, ("P%d" % n, "Q", "R"))
    history(dev)
    assert chosen(dev) == 9 and dev.screen()[0] == "Verlauf      1/9"
    dev.play("D " * 7)
    screen = dev.screen()
    assert chosen(dev) == 2 and screen[5].startswith("►") and screen[2].startswith(" #4 ")
    assert screen[0] == "Verlauf      8/9"
    dev.play("D D")  # wraps to the top
    assert chosen(dev) == 9
    # every game but the running one was put away unfinished
    dev.play("D")
    assert dev.screen()[-1] == "unterbrochen"


def test_continue_an_older_unfinished_game():
    dev = device()
    new_game(dev)
    dev.play(WORKED)  # game 1, one round
    home(dev)
    new_game(dev)  # game 2 starts: game 1 is put away unfinished
    dev.play("*")
    history(dev)
    assert dev.screen()[2].endswith(">") and dev.screen()[4].endswith("-")
    dev.play("D # #")  # game 1, its menu
    assert dev.screen()[1] == "►1 Weiterspielen"
    dev.play("#")
    screen = dev.screen()
    assert screen[0].startswith("Stand R1") and screen[1].split()[:2] == ["Anna", "89"]
    dev.play("# A D 1 0 D 2 0 # #")  # round 2: Anna wins again, +30
    assert dev.screen()[1].split()[:2] == ["Anna", "119"]
    assert dev.app.store.running_game() == 1
    dev = power_cut(dev)  # the continued game is the one that resumes
    screen = dev.screen()
    assert screen[0].startswith("Stand R2") and screen[1].split()[:2] == ["Anna", "119"]
    history(dev)
    assert chosen(dev) == 2 and dev.screen()[2].endswith("-")
    assert dev.screen()[4].endswith(">")
    assert dev.errors == []


def test_continue_the_running_game_from_its_page():
    dev = device()
    played(dev)
    history(dev)
    dev.play("# # #")
    assert dev.screen()[0].startswith("Stand R1")


def test_a_finished_game_cannot_be_continued():
    dev = device()
    finished_and_running(dev)
    history(dev)
    dev.play("D # #")
    assert dev.screen()[1] == "►1 Spiel löschen" and dev.screen()[2] == " 2 Revanche"
    assert dev.screen()[3] == ""


def test_same_players_again_from_a_stored_game():
    dev = device()
    finished_and_running(dev)
    history(dev)
    dev.play("D # # 2")  # game 1 (over), its menu, "again": game 2 runs, so it asks first
    assert "pausieren?" in "\n".join(dev.screen())
    dev.play("#")
    session = dev.app.session
    assert session.game_id == 3 and session.game.players == ("Anna", "Ben", "Cleo")
    assert session.game.target == 50 and len(session.game.rounds) == 0
    assert session.game.dealer() == "Ben"  # the next seat deals first
    assert dev.screen()[0].startswith("R1")
    assert dev.app.store.load_game(2).total(0) == 89  # the paused game is kept
    assert dev.errors == []


def test_deleting_asks_first_warns_and_stays_deleted_after_a_reboot():
    dev = device()
    finished_and_running(dev)
    history(dev)
    dev.play("D # # #")  # game 1, menu, delete
    screen = dev.screen()
    assert screen[2].strip() == "#1 löschen?"
    assert screen[4] == "Nicht exportiert" and screen[5].strip() == "Weg für immer!"
    dev.play("*")  # no: back on the game, nothing gone
    assert dev.screen()[0] == "#1"
    assert dev.app.store.history() == [2, 1]
    dev.play("# # #")  # yes
    screen = dev.screen()
    assert screen[0] == "Verlauf"
    assert chosen(dev) == 2 and screen[3] == ""
    assert screen[-1] == "Gelöscht"
    assert dev.app.store.history() == [2]
    dev = power_cut(dev)
    assert dev.app.store.history() == [2]
    history(dev)
    assert chosen(dev) == 2 and dev.screen()[3] == ""
    assert dev.errors == []


def test_deleting_the_running_game_warns_and_ends_it():
    dev = device()
    played(dev)
    history(dev)
    dev.play("# # D #")
    screen = dev.screen()
    assert screen[4].strip() == "Läuft gerade!" and screen[5] == "Nicht exportiert"
    dev.play("#")
    assert dev.screen()[1] == " Keine Spiele"
    assert dev.app.session.game is None
    dev.play("*")
    assert dev.screen()[2] == " 2 (kein Spiel)"
    dev = power_cut(dev)
    assert dev.app.store.history() == [] and dev.app.session.game is None
    assert dev.screen()[1] == "►1 Neues Spiel"


def test_deleting_a_continued_game_gives_the_table_back_to_the_running_one():
    dev = device()
    played(dev)  # 1, put away unfinished when 2 starts
    played(dev, ("Dora", "Emil", "Fritz"))  # 2, running
    history(dev)
    dev.play("D # # #")  # continue game 1: no round saved yet
    assert dev.app.session.game_id == 1 and dev.app.store.running_game() == 2
    dev.play("*")
    history(dev)
    dev.play("D # # D # #")  # delete game 1
    assert chosen(dev) == 2 and dev.screen()[3] == ""
    assert dev.app.session.game_id == 2
    dev.play("*")
    assert dev.screen()[2] == " 2 Weiterspielen"
    dev.play("2")
    assert dev.screen()[1].split()[0] == "Dora"
    assert dev.errors == []


def test_an_exported_game_is_marked_and_deleted_without_a_warning():
    dev = device()
    played(dev)
    played(dev)
    dev.app.store.mark_exported([1])
    history(dev)
    assert dev.screen()[4].endswith("^")
    dev.play("D")
    assert dev.screen()[-1] == "exportiert"
    dev.play("#")
    assert dev.screen()[2].split() == ["unterbrochen", "R1"] and dev.screen()[3] == "exportiert"
    dev.play("# D #")  # menu: continue, delete
    screen = dev.screen()
    assert screen[2].strip() == "#1 löschen?" and screen[4] == "" and screen[5] == ""


def test_damaged_and_unreadable_games_are_listed_never_hidden():
    dev = device()
    for _ in range(3):
        played(dev, target=50)  # 1-3: over, put away
    played(dev)  # 4: running
    disk = dev.app.store.disk
    flip(disk, "games/000001.tj", 3)  # game 1's start destroyed (its history entry is fine)
    size = len(disk.read("games/000002.tj"))
    flip(disk, "games/000002.tj", size - 6)  # game 2's round damaged, its start fine
    flip(disk, "live/" + disk.listdir("live")[0][0], 3)  # the running game 4 unreadable
    dev = power_cut(dev)
    assert dev.screen()[-1] == "Spiel unlesbar"  # said at boot
    history(dev)
    screen = dev.screen()
    assert screen[0] == "Verlauf      1/4"
    assert screen[1:3] == ["►ohne Datum", " #4 ?          !"]
    assert screen[-1] == "unlesbar"
    dev.play("#")
    assert dev.screen()[1] == "Spiel unlesbar"
    dev.play("D C A B 5")  # nothing to scroll
    assert dev.screen()[1] == "Spiel unlesbar"
    dev.play("#")
    assert dev.screen()[1] == "►1 Spiel löschen" and dev.screen()[2] == ""
    dev.play("* * D D D #")
    assert dev.screen()[1] == "Spiel unlesbar"
    dev.play("* C #")  # game 2: what came before the damage, and the damage said
    screen = dev.screen()
    assert screen[0] == "#2" and screen[2].split() == ["unterbrochen", "R0"]
    assert screen[4] == "beschädigt"
    # without an index the boot rebuilds it and marks game 1 as unreadable
    dev.app.store.disk.remove("index")
    dev = power_cut(dev)
    history(dev)
    assert dev.screen()[0] == "Verlauf      1/4" and dev.play("D D D") is None
    assert dev.screen()[5:7] == ["►ohne Datum", " #1 ?          !"]
    assert dev.errors == []


def test_rounds_lost_from_both_copies_are_said_at_boot_and_marked_in_the_list():
    # Both copies of the running game fell back by a round (damage in both live folders): the
    # screen had said "saved" for it, so the boot says so (store/watermark.py) and the history
    # marks the game, where it used to resume quietly one round short.
    from tafel import journal

    dev = device()
    played(dev)
    dev.app.session.save_round({"Ben": [20], "Cleo": [30]}, "Anna")
    disk = dev.app.store.disk
    seg = "live/" + disk.listdir("live")[0][0]
    for d in (disk, disk.sibling("twin")):
        data = d.read(seg)
        frames = journal.scan(data)[0]
        cut = len(data) - len(journal.frame(*frames[-1]))
        f = d.open(seg, "wb")
        f.write(data[:cut])
        f.close()
    dev = power_cut(dev)
    assert dev.screen()[-1] == "#1 Runden weg"
    assert len(dev.app.session.game.rounds) == 1  # the table goes on from what is there
    history(dev)
    screen = dev.screen()
    assert screen[2].startswith(" #1 ") and screen[2].endswith("!")
    assert screen[-1] == "beschädigt"
    assert dev.errors == []


def test_an_unreadable_game_can_be_deleted():
    dev = device()
    played(dev)
    disk = dev.app.store.disk
    flip(disk, "live/" + disk.listdir("live")[0][0], 3)
    dev = power_cut(dev)
    history(dev)
    dev.play("# # #")
    assert dev.screen()[2].strip() == "#1 löschen?" and dev.screen()[4].strip() == "unlesbar"
    dev.play("#")
    assert dev.screen()[1] == " Keine Spiele"
    dev = power_cut(dev)
    history(dev)
    assert dev.screen()[1] == " Keine Spiele"
    assert dev.app.store.disk.listdir("live") == []


def test_wrong_keys_change_nothing():
    dev = device()
    finished_and_running(dev)
    history(dev)
    dev.play("D")
    before = dev.screen()
    depth = len(dev.app.stack)
    dev.play("0 1 2 5 9 A B")  # list: digits do not open games
    assert dev.screen() == before and len(dev.app.stack) == depth
    dev.play("#")  # game page
    before = body(dev)
    dev.play("0 1 5 9 C C")  # at the top already
    assert body(dev) == before and len(dev.app.stack) == depth + 1
    dev.play("#")  # menu with two entries (delete, again)
    before = dev.screen()
    dev.play("3 9 A B 0")
    assert dev.screen() == before and len(dev.app.stack) == depth + 2
    dev.play("#")  # the question
    before = dev.screen()
    dev.play("0 5 A B C D CW CCW")
    assert dev.screen() == before and dev.app.store.history() == [2, 1]
    dev.play("*")
    dev.play("*")
    assert len(dev.app.stack) == depth
    empty = device()
    history(empty)
    before = empty.screen()
    empty.play("# PUSH D C A B 1 CW")
    assert empty.screen() == before and len(empty.app.stack) == 2
    assert dev.errors == [] and empty.errors == []
