# One export on the link (docs/protocol.md section 5): EXPORT asked (run_export), its stream taken in order and acked, games assembled.
#
# Stream frames are numbered from 0. Each one that comes in order is acked
# at once (the device's window stays open); one seen before is acked again;
# a gap or a damaged line gets an ACK 01 (go back and send from there). The
# ask is repeated when the device has gone back and the frame asked for came
# damaged again (a frame seen twice since the ask), when `window` lines came
# since without it, when the line goes quiet for QUIET without it, and when
# the device answers a line of ours with ERR bad_frame (the ask, or an ACK,
# arrived damaged). Silence for `stream_nudge` (QUIET once a line came
# damaged) repeats the ACK (ours may be lost). No frame in order for `stream_timeout`
# ends the stream: NoisyLine when damaged lines kept coming (with how many),
# DeviceGone when the device went silent. A stream that begins noisy (more
# than 1 in NOISY lines damaged) raises Shrink, so run_export can ask again
# for smaller DATA frames. DATA frames fill each file of the game the last
# GAME announced; at GEND the files are decoded with the core
# (export.game_from_files) and handed to on_game.
import math
import time

from tafel import wire
from tafel.cursor import cursor_changes, format_cursor, parse_cursor
from tafel.errors import RecordError

from ..lang import say
from . import export
from .errors import DeviceError, DeviceGone, NoisyLine

NOISY = 3  # a stream with more than 1 in NOISY lines damaged is noisy
NOISY_MIN = 4  # damaged lines before that is judged
SMALLEST_CHUNK = 32  # the least DATA size asked for: a 64-byte line, below it the frame's own bytes dominate
GOOD_LINE = 0.9  # the chance of a line arriving whole that a smaller chunk aims at
FRAME_COST = 12  # bytes of a DATA frame besides the file's: kind, seq, CRC, game id, file, offset
CANCEL_TIMEOUT = 0.5  # CANCEL of a noisy stream, to ask again with smaller frames: its OK may come damaged
QUIET = 0.25  # seconds of a quiet line after an ask for a resend, before it is asked again


class Counts:
    """What a stream's lines were like: the noisy message's figures."""

    def __init__(self):
        self.wire_in = 0  # bytes of the stream's lines in order, as they came over the wire
        self.lines = 0  # stream lines that came (damaged ones too), over every try
        self.damaged = 0  # of them, lines that were no frame (CRC, base64, two run together)


class ExportResult(Counts):
    def __init__(self):
        Counts.__init__(self)
        self.games = 0  # as announced by EXPORT's OK
        self.bytes = 0  # journal bytes announced
        self.received = 0  # journal bytes received
        self.changed = []  # ids whose files changed while sent (GEND status 1)
        self.unreadable = []  # (id, why) of games whose journal has no readable start
        self.unplaced = []  # what the export keeps of those: {"id", "damage", "set_aside"} (export.Unreadable)
        self.cursor = None  # "G:S/N@E" of DONE ("G:S" from a firmware without a change log)
        self.seconds = 0.0
        self.chunk = None  # the DATA size asked for after noise (None: the device's own)


class Shrink(Exception):
    """The stream began noisy: ask again with DATA frames of `chunk` bytes at most."""

    def __init__(self, chunk):
        Exception.__init__(self, "noisy: chunk %d" % chunk)
        self.chunk = chunk


def noisy(result):
    return NoisyLine(result.damaged, result.lines)


class InOrderStream:
    """A stream of numbered frames (docs/protocol.md section 5) taken in order and acked, with
    go-back on a gap or a damaged line; a subclass says which KINDS it takes and what
    _take(kind, body) does with each (True: the last one)."""

    KINDS = ()
    WHAT = "mid_stream"  # a text key

    def __init__(self, link, result):
        self.link, self.result = link, result
        self.expected = 0
        self._lines = self._damaged = self._bytes = 0  # this stream's own, for Shrink

    def run(self, shrink_from=None):
        """Take the stream to DONE. shrink_from: the chunk the device uses, when it may be asked to
        send smaller DATA (Shrink is raised then); None: never."""
        link, result = self.link, self.result
        window = int((link.hello or {}).get("window", 6))
        asked = None  # lines since the last ask for a resend (None: none outstanding)
        seen = set()  # numbers of the frames seen since that ask
        progress = heard = time.monotonic()
        damaged_since = 0  # damaged lines since the last frame in order
        while True:
            quiet = link.stream_nudge if asked is None and not self._damaged else min(QUIET, link.stream_nudge)
            got = link.read_frame(min(progress + link.stream_timeout, heard + quiet), stream=True)
            now = time.monotonic()
            if got is None:
                if now - progress >= link.stream_timeout:
                    if damaged_since:
                        raise noisy(result)
                    raise DeviceGone(say("went_silent", say(self.WHAT)))
                link.ack(self.expected & 0xFFFF, resend=True)  # nudge: our ACK may be lost
                asked, seen, heard = 0, set(), now
                continue
            heard = now
            kind, seq, body, size = got
            if kind == wire.ERR and seq == 0:  # a line of ours arrived damaged: say it again
                link.ack(self.expected & 0xFFFF, resend=asked is not None)
                if asked is not None:
                    asked, seen = 0, set()
                continue
            if kind != "bad" and kind not in self.KINDS:
                continue  # a late reply to an earlier request
            result.lines += 1
            self._lines += 1
            self._bytes += size
            if kind == "bad":
                result.damaged += 1
                self._damaged += 1
                damaged_since += 1
                behind = None
            else:
                behind = (self.expected - seq) & 0xFFFF
            if behind == 0:
                progress, asked, damaged_since = now, None, 0
                result.wire_in += size
                self.expected += 1
                link.ack(self.expected & 0xFFFF)
                if self._take(kind, body):
                    return
                continue
            if behind is not None and behind <= 0x8000:
                link.ack(self.expected & 0xFFFF)  # seen before (our ACK was lost): ack again
                if asked is not None:
                    asked += 1
                continue
            again = behind is not None and seq in seen  # the device went back, and ours came damaged again
            if asked is None or again or asked >= window:
                link.ack(self.expected & 0xFFFF, resend=True)  # a frame is missing: go back
                asked, seen = 0, set()
            else:
                asked += 1
            if behind is not None:
                seen.add(seq)
            if shrink_from is not None and self._damaged >= NOISY_MIN and self._damaged * NOISY > self._lines:
                smaller = self.smaller(shrink_from)
                if smaller is not None:
                    raise Shrink(smaller)

    def smaller(self, chunk):
        """The DATA size that makes a line arrive whole GOOD_LINE of the time, by the damage seen
        (at most half of `chunk`); None when `chunk` is as small as it goes."""
        if chunk <= SMALLEST_CHUNK:
            return None
        whole = 1.0 - self._damaged / self._lines
        line = self._bytes / self._lines
        if whole <= 0.0:
            target = 0
        else:  # each byte arrives whole with probability whole ** (1 / line)
            target = line * math.log(GOOD_LINE) / math.log(whole)
        chunk_for = int((target - 2) * 3 / 4) - FRAME_COST
        return max(SMALLEST_CHUNK, min(chunk // 2, chunk_for))

    def _take(self, kind, body):
        raise NotImplementedError


class ExportStream(InOrderStream):
    """One export stream: games assembled from their files."""

    KINDS = (wire.GAME, wire.DATA, wire.GEND, wire.DONE)
    WHAT = "mid_export"

    def __init__(self, link, result, on_game, progress):
        InOrderStream.__init__(self, link, result)
        self.on_game, self.progress = on_game, progress
        self.game = None  # (id, flags, {file: size}, {file: bytearray})

    def _take(self, kind, body):
        result = self.result
        if kind == wire.GAME:
            game_id, flags, files = wire.parse_game(body)
            self.game = (game_id, flags, dict(files), {number: bytearray() for number, _ in files})
        elif kind == wire.DATA:
            game_id, number, offset, data = wire.parse_data(body)
            bufs = self.game[3] if self.game and self.game[0] == game_id else {}
            if number in bufs and offset == len(bufs[number]):
                bufs[number] += data
            result.received += len(data)
            if self.progress:
                self.progress(result.received, result.bytes)
        elif kind == wire.GEND:
            self._finish_game(*wire.parse_gend(body))
        else:
            _, g, s = wire.parse_done(body)
            result.cursor = format_cursor(g, s, *(wire.done_changes(body) or (None, None)))
            return True
        return False

    def _finish_game(self, game_id, status):
        game, self.game = self.game, None
        flags = game[1] if game and game[0] == game_id else 0
        whole = status == wire.WHOLE and game and game[0] == game_id and all(
            len(game[3][n]) == size for n, size in game[2].items())
        doc = None
        if not whole:
            self.result.changed.append(game_id)
        else:
            try:
                doc = export.game_from_files([(n, bytes(data)) for n, data in game[3].items()], game_id)
            except RecordError as err:
                self.result.unreadable.append((game_id, str(err)))
                if getattr(err, "unplaced", None):
                    self.result.unplaced.append(err.unplaced)
        if self.on_game:
            self.on_game(game_id, flags, doc, sum(game[2].values()) if game else 0)


def run_export(link, mode=wire.ALL, arg=None, on_game=None, progress=None):
    """Run one export on `link` (client.Link.export): mode ONE (arg: game id), ALL, or SINCE
    (arg: a cursor, "G:S/N@E" or "G:S"); on_game(game id, flags, game dict, journal size) after each game, as it comes
    (the dict is None for a game that did not come whole or cannot be read);
    progress(journal bytes received, announced total). DeviceGone if the
    device goes silent mid-stream, NoisyLine if its frames keep coming damaged
    (the games before that were handed out). A stream that begins noisy is
    cancelled and asked again with smaller DATA frames (EXPORT's chunk,
    docs/protocol.md); its games may then be handed out twice."""
    body = bytearray([mode])
    legacy = None
    if mode == wire.ONE:
        wire.put_varint(body, arg)
    elif mode == wire.SINCE:
        # "G:S/N@E": every game changed after change N of the device's count E
        # (AFTER); a cursor without them (from before the change log) asks
        # AFTER 0 0, every game. A firmware without AFTER gets SINCE G:S.
        legacy = bytearray(body)
        for n in parse_cursor(arg):
            wire.put_varint(legacy, n)
        body = bytearray([wire.AFTER])
        for n in cursor_changes(arg) or (0, 0):
            wire.put_varint(body, n)
    from .stream import ExportResult, ExportStream, Shrink, noisy

    started = time.monotonic()
    result = ExportResult()
    chunk = None  # the DATA size asked for, once the line proved noisy
    while True:
        try:
            shrink_from = _start_export(link, body, legacy, result, chunk)
        except DeviceGone:
            if result.damaged:
                raise noisy(result) from None  # the requests to go on got lost in the noise too
            raise
        if progress:
            progress(0, result.bytes)
        stream = ExportStream(link, result, on_game, progress)
        try:
            stream.run(shrink_from)
            break
        except Shrink as more:
            chunk = result.chunk = more.chunk
        try:
            # answered at once, after the stream's frames already on the way
            link.request(wire.CANCEL, timeout=min(link.reply_timeout, CANCEL_TIMEOUT))
        except (DeviceGone, DeviceError):  # lost in the noise, or a device that cannot stop the stream
            raise noisy(result) from None
    link.stream_end = stream.expected & 0xFFFF
    result.seconds = time.monotonic() - started
    return result


def _start_export(link, body, legacy, result, chunk):
    """Send EXPORT (with `chunk` if not None) and take its OK into result; the chunk the
    device will use when it may be asked for smaller DATA, else None."""
    ask = bytearray(body)
    if chunk is not None and not getattr(link, "no_chunk", False):
        wire.put_varint(ask, chunk)
    link.export_mode = ask[0]
    try:
        answer = link.request(wire.EXPORT, bytes(ask))
    except DeviceError as err:
        if err.code != "bad_request":
            raise
        if len(ask) > len(body):  # a firmware from before EXPORT's chunk: go on with its own
            link.no_chunk = True
            return _start_export(link, body, legacy, result, None)
        if ask[0] != wire.AFTER:
            raise
        link.export_mode = wire.SINCE  # a firmware from before AFTER
        answer = link.request(wire.EXPORT, bytes(legacy))
    result.games, result.bytes = wire.parse_numbers(answer, 2)
    result.received = 0  # a stream asked again brings everything again
    result.changed, result.unreadable, result.unplaced = [], [], []
    # (epoch, changes) of the device's change log when it planned the export;
    # None from a firmware without one (its DONE has no "/N@E" either).
    link.export_changes = wire.done_changes(b"\x00" + answer)
    if getattr(link, "no_chunk", False):
        return None
    own = int((link.hello or {}).get("chunk", 0)) or None
    return min(own, chunk) if chunk and own else chunk or own
