# Typing the Wi-Fi settings: network name, password (masked), update server address (blank: search).
#
# Name and password take multi-tap letters as they are typed (ui/t9.py with
# ASCII tables, no automatic capitals): A switches abc -> ABC -> 123 (digits
# type at once), * deletes, # takes the text (blank is allowed: no network,
# no password, search for the server); * on an empty field goes back without
# saving. The address takes digits, A for "." and B for ":". The password
# shows only the letter being chosen. setup(app, done) asks the three in turn
# and stores them in the settings (write-new-then-rename, as every setting).
from micropython import const

from ui.screen import FLASH_ERRORS, Screen
from ui.t9 import MultiTap
from ui.wifi_texts import t

LOWER = {"2": "abc2", "3": "def3", "4": "ghi4", "5": "jkl5", "6": "mno6", "7": "pqrs7", "8": "tuv8",
         "9": "wxyz9", "0": " 0", "1": ".-_!?@1"}
MODES = ("abc", "ABC", "123")
_MAX_TEXT = const(63)  # WPA2's longest passphrase (a network name: 32)


class TextEntry(Screen):
    def __init__(self, app, title, on_done, text="", kind="text"):
        """kind: "text", "secret" (masked) or "address" (digits, A ".", B ":")."""
        super().__init__(app)
        self.title = title
        self.on_done = on_done
        self.kind = kind
        self.mode = 0
        self.tap = MultiTap(text, LOWER, 32 if kind == "text" else _MAX_TEXT, False)

    def key(self, k):
        tap = self.tap
        if k == "#" or k == "PUSH":
            tap.commit()
            self.app.pop()
            self.on_done(tap.text.strip() if self.kind != "secret" else tap.text)
            return
        if k == "*" and not tap.shown():
            self.app.pop()
            return
        if self.kind == "address" or MODES[self.mode] == "123":
            ch = {"A": ".", "B": ":"}.get(k, k) if self.kind == "address" else k
            if len(ch) == 1 and ch in "0123456789.:" and len(tap.text) < tap.max_len:
                tap.commit()
                tap.text += ch
                self.touch(3)
                return
        if k == "A" and self.kind != "address":
            tap.commit()
            self.mode = (self.mode + 1) % len(MODES)
            tap.letters = LOWER if self.mode == 0 else _UPPER
            self.touch()
            return
        if tap.key(k, self.app.clock.ticks_ms()):
            self.touch(3)

    def tick(self, now):
        if self.tap.tick(now):
            self.touch(3)

    def shown(self):
        tap = self.tap
        if self.kind != "secret":
            return tap.shown()
        return "*" * len(tap.text) + (tap.shown()[-1:] if tap.pending is not None else "")

    def draw_row(self, canvas, row):
        if row == 0:
            canvas.bar(0, self.title)
            if self.kind != "address":
                canvas.right(0, MODES[self.mode])
        elif row == 3:
            shown = self.shown()[-(canvas.cols - 1):]
            canvas.text(3, 0, shown)
            canvas.text(3, len(shown), "_")
        elif row == 5:
            canvas.text(5, 0, t(self.app, "help_address" if self.kind == "address" else "help_text"))
        elif row == canvas.rows - 1:
            canvas.text(row, 0, t(self.app, "keys_entry"))


_UPPER = {}
for _k in LOWER:
    _UPPER[_k] = LOWER[_k].upper()


def setup(app, done=None):
    """Ask network name, password and server in turn; save them together; done() after."""
    s = app.settings
    answers = []

    def ask(i):
        name, kind = (("wifi_ssid", "text"), ("wifi_key", "secret"), ("upd_server", "address"))[i]

        def took(text):
            answers.append(text)
            if i < 2:
                ask(i + 1)
            else:
                _save(app, answers)
                if done is not None:
                    done()

        app.push(TextEntry(app, t(app, "title_" + name), took, s.get(name) or "", kind))

    ask(0)


def _save(app, answers):
    s = app.settings
    s["wifi_ssid"], s["wifi_key"], s["upd_server"] = answers
    try:
        app.store.save_settings(s)
    except FLASH_ERRORS as err:
        app.notify(app.refused_save(err))
        return
    app.notify(app.t("saved"))
    if app.device_id is not None:  # a club's table: its link on the network as set now
        from club.table import restart

        restart(app)
