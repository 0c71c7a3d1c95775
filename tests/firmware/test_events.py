# Event codes and the preallocated event queue.
import micropython
import pytest

from drivers import events
from drivers.events import EventQueue


def test_codes_and_names_go_both_ways():
    names = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9",
             "A", "B", "C", "D", "*", "#", "CW", "CCW", "PUSH"]
    assert list(events.NAMES) == names
    for i, name in enumerate(names):
        assert events.code(name) == i and events.NAMES[i] == name
    assert (events.STAR, events.HASH, events.CW, events.CCW, events.PUSH) == (14, 15, 16, 17, 18)
    assert events.code("7") == 7 and events.code("C") == 12
    with pytest.raises(KeyError):
        events.code("E")


def test_first_in_first_out_across_the_wrap():
    q = EventQueue(4)  # holds 3
    assert len(q) == 0 and q.get() is None
    out = []
    for round_ in range(5):
        assert q.put(round_) and q.put(events.CW)
        assert len(q) == 2
        out += [q.get(), q.get()]
    assert out == [0, 16, 1, 16, 2, 16, 3, 16, 4, 16]
    assert q.get() is None and len(q) == 0


def test_a_full_queue_drops_the_newest_and_counts_it():
    q = EventQueue(4)
    assert q.put(1) and q.put(2) and q.put(3)
    assert not q.put(4)
    assert q.dropped == 1 and len(q) == 3
    assert [q.get(), q.get(), q.get(), q.get()] == [1, 2, 3, None]
    q.put(5)
    q.clear()
    assert len(q) == 0


def test_put_and_get_allocate_nothing():
    q = EventQueue()
    micropython.heap_lock()
    try:
        for i in range(100):
            q.put(i % 19)
            q.get()
        q.put(events.PUSH)
        n = len(q)
    finally:
        micropython.heap_unlock()
    assert n == 1
