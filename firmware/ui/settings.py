# Settings: language, display sleep, contrast, deep sleep, and the ways into
# the self-test, the Wi-Fi settings (ui/wifi_entry.py) and an update over
# Wi-Fi (ui/wifi_update.py). Each change applies at once and is saved by the store
# (write-new-then-rename); if saving fails the screen says so and the change
# holds until the next restart.
#
# Two rows a setting: its name (highlighted under the cursor), its value below;
# three settings fit, the list scrolls. C/D or the rotary move, # (push) or A
# takes the next value (or opens the self-test), B the previous (the hint
# says "#+ B-"), * goes back.
# settings: "lang" ("de"/"en"), "sleep" (seconds, 0 = never), "contrast"
# (the SSD1306's 0-255; start-up applies it, see startup.py), "deep_sleep"
# (minutes without a key, 0 = never, counted from the last key like "sleep"
# and only once the display is off: with "sleep" never there is no deep
# sleep either; see ui/app.py and power.py), "table" (seconds without a key
# on the standings before the table view's large digits, 0 = never).
from micropython import const

from ui.registry import LANGUAGES
from ui.screen import FLASH_ERRORS, Screen

LANGS = LANGUAGES
SLEEPS = (0, 30, 60, 300)
CONTRASTS = (16, 64, 127, 255)
DEEP_SLEEPS = (0, 10, 30, 60, 120)
TABLES = (0, 5, 15, 60)
DEFAULTS = {"lang": "de", "sleep": 60, "contrast": 127,  # 127: what the driver sets up
            "deep_sleep": 30, "table": 5}
ITEMS = ("lang", "sleep", "contrast", "deep_sleep", "table", "wifi", "update", "selftest")
OPTIONS = {"lang": LANGS, "sleep": SLEEPS, "contrast": CONTRASTS, "deep_sleep": DEEP_SLEEPS, "table": TABLES}
NAMES = {"lang": "set_lang", "sleep": "set_sleep", "contrast": "set_contrast", "deep_sleep": "set_deep",
         "table": "set_table", "selftest": "set_selftest", "wifi": "set_wifi", "update": "set_update"}
SHOWN = const(3)  # settings on screen at once
OPENS = {"selftest": "selftest", "update": "wifi_update"}  # the settings that open a screen (ui/registry.py)


def option(name, value):
    """The index of the stored value among the choices (the nearest for a number)."""
    choices = OPTIONS[name]
    if value in choices:
        return choices.index(value)
    if name == "lang" or type(value) is not int:
        return choices.index(DEFAULTS[name])
    best = 0
    for i in range(len(choices)):
        if abs(choices[i] - value) < abs(choices[best] - value):
            best = i
    return best


class Settings(Screen):
    def __init__(self, app):
        super().__init__(app)
        self.cursor = 0
        self.top = 0  # the first setting on screen
        self.note = None  # shown in the hint row until the next key

    def resume_state(self):
        return self.cursor

    def restore(self, state):
        if type(state) is int and 0 <= state < len(ITEMS):
            self._move(state - self.cursor)

    def key(self, k):
        if self.note is not None:
            self.note = None
            self.touch(self.app.canvas.rows - 1)
        if k == "C" or k == "CCW":
            self._move(-1)
        elif k == "D" or k == "CW":
            self._move(1)
        elif k == "#" or k == "PUSH" or k == "A":
            self._change(1)
        elif k == "B":
            self._change(-1)
        elif k == "*":
            self.app.pop()

    def _move(self, step):
        self.cursor = (self.cursor + step) % len(ITEMS)
        if self.cursor < self.top:
            self.top = self.cursor
        elif self.cursor >= self.top + SHOWN:
            self.top = self.cursor - SHOWN + 1
        self.touch()

    def value(self, name):
        return OPTIONS[name][option(name, self.app.settings.get(name, DEFAULTS[name]))]

    def _change(self, step):
        app = self.app
        name = ITEMS[self.cursor]
        if name in OPENS:  # a way into another screen: forwards only
            if step > 0:
                app.open(OPENS[name])
            return
        if name == "wifi":  # settings["wifi_ssid"], ["wifi_key"], ["upd_server"]
            if step > 0:
                from ui.wifi_entry import setup

                setup(app)
            return
        choices = OPTIONS[name]
        value = choices[(option(name, app.settings.get(name, DEFAULTS[name])) + step) % len(choices)]
        app.settings[name] = value  # the app reads its settings dict: in force from here
        if name == "lang":
            app.set_language(value)
        elif name == "contrast":
            app.display.contrast(value)
        self.touch()
        try:
            app.store.save_settings(app.settings)
        except FLASH_ERRORS as err:
            app.notify(app.refused_save(err))
            self.note = app.t("set_unsaved")
            return
        app.notify(app.t("saved"))

    def _value_text(self, name):
        t = self.app.t
        if name == "selftest":
            return t("st_open")
        if name == "wifi":
            return (self.app.settings.get("wifi_ssid") or t("wifi_none"))[:self.app.canvas.cols]
        if name == "update":
            return t("upd_open")
        value = self.value(name)
        if name == "lang":
            return t("lang_" + value)
        if name == "sleep":
            return t("sleep_%d" % value)
        if name == "deep_sleep":
            return t("ds_%d" % value)
        if name == "table":
            return t("tv_%d" % value)
        return t("contrast_%d" % CONTRASTS.index(value))

    def draw_row(self, canvas, row):
        t = self.app.t
        last = canvas.rows - 1
        if row == 0:
            canvas.bar(0, t("settings"))
        elif row == last:
            canvas.text(last, 0, (self.note or t("set_keys_both"))[:canvas.cols])
        else:
            i = self.top + (row - 1) // 2
            if i >= len(ITEMS):
                return
            name = ITEMS[i]
            here = i == self.cursor
            if (row - 1) % 2 == 0:
                if here:
                    canvas.bar(row, t(NAMES[name]))
                else:
                    canvas.text(row, 0, t(NAMES[name])[:canvas.cols])
            else:
                canvas.right(row, self._value_text(name))
