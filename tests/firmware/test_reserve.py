# The reserve: runs of heap kept back, let go for the steps that need room in one piece.
import gc

import reserve


def test_keep_holds_one_block_of_room_and_let_go_gives_it_back():
    reserve.let_go()
    gc.collect()
    before = gc.mem_alloc()
    reserve.keep()
    gc.collect()
    held = gc.mem_alloc() - before
    assert reserve.PIECES * reserve.ROOM <= held <= reserve.PIECES * (reserve.ROOM + 32)
    reserve.let_go()
    gc.collect()
    assert gc.mem_alloc() - before < 64
    reserve.keep()  # as the app leaves it


def test_keep_twice_holds_it_once():
    reserve.keep()
    gc.collect()
    before = gc.mem_alloc()
    reserve.keep()
    gc.collect()
    assert gc.mem_alloc() - before < 64


def test_keep_in_a_heap_without_such_a_run_goes_without_and_takes_it_later():
    reserve.let_go()
    gc.collect()
    filler = None
    for size in (reserve.ROOM // 4, 64, 16):  # the heap filled: no run as long as the reserve left
        try:
            while True:
                filler = (filler, bytearray(size))  # a chain: no list that grows in one block
        except MemoryError:
            pass
    try:
        reserve.keep()  # no MemoryError out of it
        held = reserve._held[0]
    finally:
        filler = None
    gc.collect()
    assert held is None
    reserve.keep()
    assert [len(piece) for piece in reserve._held] == [reserve.ROOM] * reserve.PIECES
