# Specification of journal framing: length, sequence number and CRC around each record.
from tafel import journal


def stream(count):
    out = b""
    for seq in range(1, count + 1):
        out += journal.frame(seq, bytes([seq]) * seq)
    return out


def test_frames_read_back_in_order():
    records, end, problem = journal.scan(stream(3))
    assert records == [(1, b"\x01"), (2, b"\x02\x02"), (3, b"\x03\x03\x03")]
    assert end == 3 * journal.FRAME_OVERHEAD + 6
    assert problem is None


def test_frame_overhead_is_ten_bytes():
    assert len(journal.frame(5, b"abc")) == 3 + journal.FRAME_OVERHEAD


def test_an_empty_journal_is_clean():
    assert journal.scan(b"") == ([], 0, None)


def test_erased_flash_after_the_last_frame_is_a_clean_end():
    data = stream(2)
    assert journal.scan(data + b"\xff" * 40) == journal.scan(data)
    assert journal.scan(data + b"\x00" * 40) == journal.scan(data)


def test_a_torn_tail_keeps_every_frame_before_it():
    data = stream(3)
    good = len(stream(2))
    for cut in range(good + 1, len(data)):
        records, end, problem = journal.scan(data[:cut])
        assert len(records) == 2
        assert end == good
        assert "torn" in problem


def test_a_flipped_bit_keeps_every_frame_before_it():
    data = stream(4)
    start = len(stream(2))
    for i in range(start, len(stream(3))):
        bad = bytearray(data)
        bad[i] ^= 0x10
        records, end, problem = journal.scan(bytes(bad))
        assert len(records) == 2
        assert end == start
        assert problem is not None


def test_a_gap_in_sequence_numbers_stops_the_scan():
    data = journal.frame(1, b"a") + journal.frame(3, b"b")
    records, end, problem = journal.scan(data)
    assert records == [(1, b"a")]
    assert "sequence" in problem


def test_read_frame_at_an_offset():
    data = stream(2)
    seq, payload, end = journal.read_frame(data, journal.FRAME_OVERHEAD + 1)
    assert (seq, payload, end) == (2, b"\x02\x02", len(data))
    assert journal.read_frame(data, 1) is None


def test_oversized_payloads_are_refused():
    try:
        journal.frame(1, b"x" * (journal.MAX_PAYLOAD + 1))
    except ValueError:
        return
    raise AssertionError("an oversized payload was framed")
