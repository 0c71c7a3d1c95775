# Start-up shared by the device and the simulator: storage check, the app and its first screen.
from session import Session
from ui.app import App

# Boot notes worth a word on screen (the rest is in the store's report).
_SHOWN = ("game_damaged", "game_unreadable", "flash_full", "flash_low", "torn_tail_repaired",
          "settings_damaged", "roster_damaged")


def start(display, store, clock, capture=False, log=None):
    """Check the flash, resume the unfinished game and show where the table left off."""
    notes = store.boot()
    session = Session(store, clock)
    session.resume()
    app = App(display, clock, store, session, store.settings, capture, log)
    contrast = store.settings.get("contrast")
    if type(contrast) is int and 0 <= contrast <= 255:
        display.contrast(contrast)
    app.show_game()
    for key, _ in notes:
        if key in _SHOWN:
            app.notify(app.t(key))
            break
    app.render()
    return app
