# Where the table was, kept through a deep sleep: the screens' identities, never their pixels.
#
# The resume record is a small dict:
#   {"g": running game id or None, "t": wall-clock seconds (0: not set),
#    "s": [[screen name, state], ...]}      (the screen stack, bottom first)
# A screen can come back when ui/registry.py says it resumes (the record
# keeps its registry name) and may keep a little state (Screen.resume_state /
# restore, e.g. a cursor, or the hands typed in round entry). The stack is kept up to the
# first screen that cannot come back (a question, name entry, the
# self-test), so after the wake the table sees that screen's parent.
# The power keeps the record (power.py); start-up rebuilds the screens from
# it after a wake from deep sleep and does what a plain power-on does when
# the record does not fit any more (a game gone, a screen renamed by an
# update): a record never stops the device from starting.
import json
import sys

from power import MAX_RECORD
from ui import registry


def record(app):
    """The resume record for what the app shows now."""
    stack = []
    for screen in app.stack:
        name = registry.name_of(screen)
        if not registry.resumes(name):
            break
        stack.append([name, screen.resume_state()])
    rec = {"g": app.session.game_id, "t": app.clock.time(), "s": stack}
    if len(json.dumps(rec)) > MAX_RECORD - 64:  # room for the power's own fields
        for item in stack:
            item[1] = None  # screens without their state still beat no screens
    return rec


def sleep(app):
    """Remember where the table is and go into deep sleep (a reboot wakes it).

    If the power cannot (a wake source refused), the device stays awake and
    tries again after another idle time: a sleep never takes the game down."""
    try:
        app.power.deep_sleep(record(app))
    except Exception as err:
        if app.log is not None:
            app.log(err)
        else:
            sys.print_exception(err)
        app.last_key = app.clock.ticks_ms()


def restore(app, rec):
    """Rebuild the screens of a record; False (and nothing shown) if it does not fit."""
    wall = rec.get("t")
    if type(wall) is int and wall > 0:  # the wall clock, moved on by the time asleep
        asleep = rec.get("z", 0)
        app.clock.set_time(wall + (asleep if type(asleep) is int and asleep > 0 else 0))
    try:
        stack = rec["s"]
        if not stack or stack[0][0] != "home":
            return False
        game_id = rec.get("g")
        session = app.session
        if game_id is None:
            session.close()  # as it was: no game on the table (after game over)
        elif game_id != session.game_id or session.game is None:
            session.open(game_id)  # a game continued from the history, or one just over
        app.home()
        home = app.stack[0]
        home.restore(stack[0][1])
        home.on_open()
        for name, state in stack[1:]:
            if not registry.resumes(name):  # a name an update took away
                raise KeyError(name)
            app.push(registry.load(name).resumed(app, state))
    except Exception as err:
        if app.log is not None:
            app.log(err)
        else:
            sys.print_exception(err)
        app.stack = []
        return False
    return True
