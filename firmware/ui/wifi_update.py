# Settings > Update: join the Wi-Fi, find `tafel serve-update`, show its version, and on # fetch,
# check and switch to it, then restart into it on trial (as an update over USB does).
#
# The work is one generator (update/net.py, update/fetch.py) stepped from
# tick(): a chunk a step, so the screen shows progress and the keys stay
# alive; * leaves at any point and what came is kept on flash for the next
# try. Refusals show the UpdateError in words (ui/wifi_texts.py) and what to check.
# Once the table confirms the offer, the game in memory and the closed screens'
# modules are let go for the transfer (the game is on flash).
# app.wlan() gives the board's station interface (board.wlan) and
# app.restart() reboots; a board without them says "no Wi-Fi".
from micropython import const

from tafel.bundle.errors import UpdateError
from tafel.version import VERSION
from ui.screen import Screen
from ui.wifi_texts import refusal, t

_DONE_MS = const(1500)  # "restarting" stays this long on screen
_FIRST_LINE = const(2)  # the state's lines start here, a blank row below the title
# The keys each state takes, said in the last row (none while checking and restarting).
_KEYS = {"join": "keys_back", "find": "keys_back", "ask": "keys_back", "offer": "keys_offer",
         "load": "keys_back", "refused": "keys_back"}


class WifiUpdate(Screen):
    def __init__(self, app):
        super().__init__(app)
        self.state = "join"
        self.offer = None
        self.done = 0
        self.total = 0
        self.error = None
        self.http = None
        self.confirmed = False
        self.version = None
        self.since = 0
        self.job = self._work()

    def _work(self):
        from update import fetch, net

        app = self.app
        make = getattr(app, "wlan", None)
        if make is None:
            raise UpdateError("no_network", "no_wifi")
        s = app.settings
        wlan = make()
        yield from net.join(wlan, s.get("wifi_ssid"), s.get("wifi_key") or "", app.clock)
        server = net.parse_server(s.get("upd_server"))
        if server is None:
            self._show("find")
            host, port, _ = yield from net.find(wlan, app.clock)
        else:
            host, port = server
        self._show("ask")
        yield
        self.http = fetch.Http(host, port)
        offer = fetch.get_offer(self.http)
        from tafel.bundle.manifest import compare_versions

        same = compare_versions(offer["app"], VERSION) == 0
        compare_versions = None  # the format's module goes with the signature check (stage.py)
        if same:
            raise UpdateError("same_version", VERSION)
        self.offer = offer
        self._show("offer")
        while not self.confirmed:
            yield
        self._show("load")
        from update import stage

        stager = stage.stager(app.store.update_volume())
        for done, total in fetch.steps(stager, self.http, offer):
            self.done, self.total = done, total
            self.touch(3)
            self.touch(4)
            yield
        self.http.close()
        self._show("check")
        yield  # drawn before the long check
        self.version = stager.finish()
        self._show("done")

    def _show(self, state):
        self.state = state
        self.since = self.app.clock.ticks_ms()
        self.touch()

    def tick(self, now):
        if self.state == "done":
            restart = getattr(self.app, "restart", None)
            if now - self.since >= _DONE_MS and restart is not None:
                self.state = "restarting"
                restart()
            return
        if self.job is None:
            return
        try:
            next(self.job)
        except StopIteration:
            self.job = None
        except UpdateError as err:
            self._stop(err)
        except OSError:  # the network went away between two steps
            self._stop(UpdateError("server_gone"))

    def _stop(self, err):
        self.job = None
        self.error = err
        self._close()
        self._show("refused")

    def _close(self):
        if self.http is not None:
            self.http.close()

    def key(self, k):
        if self.state == "offer" and (k == "#" or k == "PUSH"):
            self.confirmed = True
            # the transfer, its checks and the unpacking need the room, as an update over USB (App.make_room)
            self.app.let_game_go([type(screen).__module__ for screen in self.app.stack])
        elif k == "*" and self.state not in ("check", "done", "restarting"):
            self.app.pop()

    def on_hide(self):
        if self.job is not None and self.state not in ("check", "done"):
            self.job = None  # leaving: what is on flash stays for the next try
            self._close()

    # ---- drawing: the title, the state's lines from the third row down, its keys in the last row ----

    def draw_row(self, canvas, row):
        app = self.app
        last = canvas.rows - 1
        if row == 0:
            canvas.bar(0, t(app, "refused" if self.state == "refused" else "title"))
        elif row == last:
            keys = _KEYS.get(self.state)
            if keys is not None:
                canvas.text(last, 0, t(app, keys))
        elif row >= _FIRST_LINE:
            lines = self._lines(canvas.cols)
            if row - _FIRST_LINE < len(lines):
                canvas.text(row, 0, lines[row - _FIRST_LINE][:canvas.cols])

    def _lines(self, cols):
        """What the state says, a text a row, top down."""
        state = self.state
        if state == "refused":
            return self._refusal_lines()
        if state == "offer":
            return self._offer_lines()
        if state == "load":
            return self._load_lines(cols)
        if state == "done" or state == "restarting":
            return self._done_lines()
        return (t(self.app, state),)  # join, find, ask, check: one word of what it is doing

    def _refusal_lines(self):
        # The refusal in words, what to check where there is a word for it (never the raw key),
        # and after a lost server that the next try goes on from what came.
        app, key = self.app, self.error.key
        return (refusal(app, self.error), t(app, "adv_" + key, ""), "",
                t(app, "resume") if key == "server_gone" else "")

    def _offer_lines(self):
        app, offer = self.app, self.offer
        return ("%s %s" % (t(app, "offer"), offer["app"]), "%s %s" % (t(app, "running"), VERSION),
                "%d KB" % ((offer["size"] + 1023) // 1024))

    def _load_lines(self, cols):
        total = self.total or 1
        percent = "%d %%" % (self.done * 100 // total)
        bar = "#" * (self.done * (cols - 5) // total)
        return (t(self.app, "load"), bar + " " * (cols - len(bar) - len(percent)) + percent,
                "%d/%d KB" % (self.done // 1024, (total + 1023) // 1024))

    def _done_lines(self):
        # The new version; a board that cannot restart itself asks for it.
        app = self.app
        by_hand = t(app, "by_hand") if getattr(app, "restart", None) is None else ""
        return (t(app, "done"), self.version or "", by_hand)
