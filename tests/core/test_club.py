# Specification of the club messages: topics, signed bodies and their HMAC, as table and hub both read them.
from tafel import club, journal, records
from tafel.errors import RecordError

SECRET = bytes(range(32))
TOPIC = club.topic("kartenclub", "esp32-a1b2c3d4e5f6", "records")


def raises(fn, *args):
    try:
        fn(*args)
    except RecordError:
        return True
    return False


def test_the_hmac_is_rfc_4231s():
    # RFC 4231, test cases 1 and 2, and case 6 for a key longer than SHA-256's block
    assert club.mac(b"\x0b" * 20, b"Hi There") == bytes.fromhex(
        "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
    assert club.mac(b"Jefe", b"what do ya want for nothing?") == bytes.fromhex(
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    assert club.mac(b"\xaa" * 131, b"Test Using Larger Than Block-Size Key - Hash Key First") == bytes.fromhex(
        "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")


def test_topics_name_the_club_the_device_and_what():
    assert TOPIC == b"tafel/kartenclub/esp32-a1b2c3d4e5f6/records"
    assert club.topic_parts(TOPIC) == ("kartenclub", "esp32-a1b2c3d4e5f6", "records")
    assert club.topic_parts("tafel/kartenclub/dev") is None
    assert club.topic_parts("other/a/b/c") is None
    assert club.topic_parts("tafel//b/c") is None


def test_only_plain_names_go_into_a_topic():
    assert club.valid_name("Kartenclub_Nord-2")
    for bad in ("", "a/b", "a+b", "#", "Käthe", "a b", "x" * 41):
        assert not club.valid_name(bad), bad


def test_a_record_travels_as_its_journal_frame():
    payload = records.encode_round(1, [12, None, 30])
    frame = journal.frame(4, payload)
    body = club.encode_record(77, frame)
    assert club.kind_of(body) == club.RECORD
    assert club.decode_record(body) == (77, 4, payload, frame)


def test_a_record_whose_frame_is_damaged_or_padded_is_refused():
    frame = journal.frame(4, records.encode_undo(0))
    body = club.encode_record(77, frame)
    flipped = bytearray(body)
    flipped[-6] ^= 1
    assert raises(club.decode_record, bytes(flipped))
    assert raises(club.decode_record, body + b"\x00")
    assert raises(club.decode_record, body[:-1])
    assert raises(club.decode_record, club.encode_ack(77, 5))


def test_a_signed_message_opens_only_with_its_secret_and_topic():
    body = club.encode_ack(3, 9)
    message = club.sign(SECRET, TOPIC, body)
    assert len(message) == len(body) + club.MAC_SIZE
    assert club.open_signed(SECRET, TOPIC, message) == bytes(body)
    other = club.topic("kartenclub", "esp32-000000000000", "records")
    assert club.open_signed(SECRET, other, message) is None
    assert club.open_signed(bytes(32), TOPIC, message) is None
    tampered = bytearray(message)
    tampered[2] ^= 1
    assert club.open_signed(SECRET, TOPIC, bytes(tampered)) is None
    assert club.open_signed(SECRET, TOPIC, message[:10]) is None


def test_acks_state_and_table_read_back():
    assert club.decode_ack(club.encode_ack(300, 41)) == (300, 41)
    state = club.encode_state(5, 12, 2, True, ["Jürgen", "Özlem"], [503, 75])
    assert club.decode_state(state) == (5, 12, 2, True, ["Jürgen", "Özlem"], [503, 75])
    table = club.encode_table(2, 3, 0, 500, ["Anna", "Ben", "Cleo", "Dora"])
    assert club.decode_table(table) == (2, 3, 0, 500, ["Anna", "Ben", "Cleo", "Dora"])


def test_garbage_is_refused_not_believed():
    assert club.kind_of(b"") is None
    assert club.kind_of(b"\x09\x01") is None
    for fn in (club.decode_ack, club.decode_state, club.decode_table):
        assert raises(fn, b"\x01")
        assert raises(fn, b"\x02\x01\x05")
    assert raises(club.decode_ack, club.encode_ack(1, 2) + b"\x00")


def test_a_pairing_goes_as_fields_the_device_reads_back():
    from tafel import wire

    fields = club.pair_fields("192.168.1.20", 1883, "kartenclub", "Tisch 7", SECRET)
    assert [tag for tag, _ in fields] == [club.PAIR_HOST, club.PAIR_PORT, club.PAIR_CLUB, club.PAIR_TABLE,
                                          club.PAIR_SECRET]
    assert fields[4][1] == "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
    body = bytearray((wire.FIRST | wire.LAST,))
    for tag, value in fields:
        club.put_field(body, tag, value)
    assert len(body) <= wire.MAX_REQUEST + 60  # two requests at most: the longest fields fill one each
    r = wire.Body(bytes(body))
    assert r.byte() == 3
    got = {}
    while r.pos < len(body):
        tag = r.byte()
        got[tag] = r.varint() if tag == club.PAIR_PORT else r.text()
    assert got == dict(fields)


def test_a_pairing_the_table_cannot_keep_is_named():
    ok = ("192.168.1.20", 1883, "kartenclub", "Tisch 7", SECRET)
    assert club.pairing_problem(*ok) is None
    assert club.pairing_problem("hub.local", 1, "k", "Käthes Tisch", SECRET) is None
    for i, bad in ((0, ""), (0, "a host"), (0, "x" * 65), (1, 0), (1, 65536), (2, "a/b"), (3, " "),
                   (3, "x" * 41), (3, "a\nb"), (4, SECRET[:31])):
        args = list(ok)
        args[i] = bad
        assert club.pairing_problem(*args) is not None, (i, bad)
