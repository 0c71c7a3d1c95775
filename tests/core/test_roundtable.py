# The round table: rounds kept in small fixed chunks, and the next chunk made when the caller says.
from tafel import Game
from tafel.roundtable import EMPTY, ROWS_PER_CHUNK, RoundTable


def test_rows_come_back_as_stored_with_empty_cells_as_none():
    table = RoundTable(3)
    table.put(0, 2, [40, 7, 0])
    table.put(1, None, [None, 12, 3])
    assert table.winner(0) == 2 and table.hands(0) == [40, 7, 0]
    assert table.winner(1) is None and table.hands(1) == [None, 12, 3]
    cells, base = table.locate(1)
    assert cells[base] == EMPTY and cells[base + 1] == EMPTY


def test_a_chunk_holds_a_fixed_number_of_rows_and_the_next_one_is_made_when_needed():
    table = RoundTable(10)
    for i in range(ROWS_PER_CHUNK):
        table.put(i, 0, [0] + [i] * 9)
    assert len(table.chunks) == 1
    table.put(ROWS_PER_CHUNK, 0, [0] + [1] * 9)
    assert len(table.chunks) == 2
    assert len(table.chunks[0]) == ROWS_PER_CHUNK * 11  # ten seats and the winner: 176 bytes


def test_make_room_makes_the_chunk_of_the_next_round_so_applying_it_makes_none():
    # The device makes the chunk while its heap reserve is held, then lets the reserve go for
    # the files a save opens (firmware/session.py): the chunk must not be made in between.
    game = Game(["Anna", "Ben"], target=10 ** 4)
    for r in range(ROWS_PER_CHUNK * 2 + 1):
        game.make_room()
        made = len(game._table.chunks)
        assert made * ROWS_PER_CHUNK > r  # the row of the coming round exists
        game.add_round({"Ben": r + 1}, "Anna")
        assert len(game._table.chunks) == made
    assert game.totals()[0][1] == sum(range(1, ROWS_PER_CHUNK * 2 + 2))


def test_make_room_twice_makes_one_chunk():
    game = Game(["Anna", "Ben"], target=500)
    game.make_room()
    game.make_room()
    assert len(game._table.chunks) == 1


def test_room_needed_says_when_the_next_round_begins_a_chunk():
    game = Game(["Anna", "Ben"], target=10 ** 4)
    needed = []
    for _ in range(ROWS_PER_CHUNK * 2):
        needed.append(game.room_needed())
        game.add_round({"Ben": 1}, "Anna")
    assert needed == ([True] + [False] * (ROWS_PER_CHUNK - 1)) * 2
    game.make_room()
    assert not game.room_needed()
