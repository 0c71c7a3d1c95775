# The boot check's record of closed journals (store/bootcheck.py Closed): sizes per copy, by game id, in arrays.
from store.bootcheck import Closed


def test_sizes_are_kept_per_copy_and_a_game_without_a_file_is_not_there():
    closed = Closed([3, 5, 9])
    closed.found(5, 0, 120)
    closed.found(5, 1, 0)  # an empty file in the twin still counts
    closed.found(9, 1, 77)
    assert closed.sizes(5) == (120, 0) and closed.sizes(9) == (None, 77)
    assert closed.sizes(3) is None and 3 not in closed and 5 in closed and 9 in closed
    assert list(closed) == [5, 9]


def test_journals_the_index_does_not_list_are_kept_beside_it():
    closed = Closed([2])
    closed.found(2, 0, 10)
    closed.found(7, 1, 40)
    closed.found(7, 0, 41)
    assert 7 in closed and closed.sizes(7) == (41, 40) and 8 not in closed
    assert sorted(closed) == [2, 7]


def test_set_and_pop_change_both_copies():
    closed = Closed([1, 4])
    closed.found(1, 0, 5)
    closed.set(1, 9, 9)
    closed.set(6, None, 12)
    assert closed.sizes(1) == (9, 9) and closed.sizes(6) == (None, 12)
    closed.pop(1)
    closed.pop(6)
    closed.pop(99)  # never there: nothing happens
    assert list(closed) == [] and 1 not in closed and 6 not in closed
