# One export stream on the link (docs/protocol.md section 5): frames taken in order and acked, games assembled.
#
# Stream frames are numbered from 0. Each one that comes in order is acked
# at once (the device's window stays open); one seen before is acked again;
# a gap or a damaged line gets one ACK 01 (go back and send from there) until
# the missing frame comes. Silence for `stream_nudge` repeats the ACK (ours may
# be lost); silence for `stream_timeout` means the device is gone. DATA frames
# fill each file of the game the last GAME announced; at GEND the files are
# decoded with the core (export.game_from_files) and handed to on_game.
import time

from tafel import wire
from tafel.errors import RecordError

from . import export
from .link_client import DeviceGone

_STREAM = (wire.GAME, wire.DATA, wire.GEND, wire.DONE)


class ExportResult:
    def __init__(self):
        self.games = 0  # as announced by EXPORT's OK
        self.bytes = 0  # journal bytes announced
        self.received = 0  # journal bytes received
        self.wire_in = 0  # bytes of the stream's lines, as they came over the wire
        self.changed = []  # ids whose files changed while sent (GEND status 1)
        self.unreadable = []  # (id, why) of games whose journal has no readable start
        self.unplaced = []  # what the export keeps of those: {"id", "damage", "set_aside"} (export.Unreadable)
        self.cursor = None  # "G:S/N@E" of DONE ("G:S" from a firmware without a change log)
        self.seconds = 0.0


class ExportStream:
    """One export stream: frames in order, acked; games assembled from their files."""

    def __init__(self, link, result, on_game, progress):
        self.link, self.result, self.on_game, self.progress = link, result, on_game, progress
        self.expected = 0
        self.game = None  # (id, flags, {file: size}, {file: bytearray})

    def run(self):
        link = self.link
        asked = False  # a resend was asked for since the last frame in order
        last_heard = time.monotonic()
        while True:
            got = link._frame(min(last_heard + link.stream_timeout, time.monotonic() + link.stream_nudge))
            now = time.monotonic()
            if got is None:
                if now - last_heard >= link.stream_timeout:
                    raise DeviceGone("the device went silent in the middle of the export")
                link.ack(self.expected & 0xFFFF, resend=True)  # nudge: our ACK may be lost
                continue
            kind, seq, body, size = got
            if kind == "bad":
                if not asked:
                    link.ack(self.expected & 0xFFFF, resend=True)
                    asked = True
                continue
            if kind not in _STREAM:
                continue  # a late reply to an earlier request
            behind = (self.expected - seq) & 0xFFFF
            if behind == 0:
                last_heard, asked = now, False
                self.result.wire_in += size
                self.expected += 1
                link.ack(self.expected & 0xFFFF)
                if self._take(kind, body):
                    return
            elif behind <= 0x8000:
                link.ack(self.expected & 0xFFFF)  # seen before: ack again
            elif not asked:
                link.ack(self.expected & 0xFFFF, resend=True)  # a frame is missing: go back
                asked = True

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
            result.cursor = wire.format_cursor(g, s, *(wire.done_changes(body) or (None, None)))
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
