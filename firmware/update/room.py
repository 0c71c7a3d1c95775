# Whether a new version's slot fits on the flash beside the games (update/stage.py asks at the head).
#
# Imported when a bundle's head is checked, and let go with the rest of the update's code.
from micropython import const

from tafel.bundle.errors import UpdateError

RESERVE = const(64)  # flash blocks an update leaves free: store/space.py's RUNNING + NEW_GAME


def blocks_needed(st, m):
    """Flash blocks that staging manifest `m` with Stager `st` takes at most, beyond what is there.

    Each body is unpacked and dropped as soon as it is whole (Stager.put), so at most one body
    lies beside the unpacked files: the largest. LittleFS keeps a file in its blocks (its
    skip-list's pointers, a few bytes a block, within the 64 bytes added), and each folder's
    entries in a metadata pair of its own, two blocks that grow by one for every few dozen files
    (one block counted for every 16 files). Not a block for each file's entry: with a whole
    application in the slot (stock MicroPython) that overcounted 111 blocks of a 2 MB flash and
    refused updates that fit. With every file there, the two blocks of the switch's state file
    (bootsel.py writes it anew): not the first body's four, which refused the switch itself on a
    flash filled to the edge, after every byte was sent."""
    bs = st.disk.space()[2]
    need = body = 4
    files = folders = 0
    last = None
    for entry in m.files:
        if not (st._in_image(entry) or st._staged(entry)):
            need += (entry.size + 64 + bs - 1) // bs
            body = max(body, (entry.stored + bs - 1) // bs + 4)
            files += 1
            folder = entry.path.rpartition("/")[0]
            if folder != last:  # the manifest lists a folder's files together (else: more, to be safe)
                folders += 1
                last = folder
    if not files:  # all there (finish() checks again): only bootsel's state is written anew
        return 2
    return need + body + 2 * folders + files // 16


def check(st, m):
    """UpdateError("no_space", (KB needed, KB free)) unless the slot fits and leaves the games
    their room (store/space.py: a running game's and a new one's)."""
    need = blocks_needed(st, m)
    free, _, bs = st.disk.space()
    if free - need < RESERVE:
        raise UpdateError("no_space", (need * bs // 1024, free * bs // 1024))
