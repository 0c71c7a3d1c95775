# What a Tafel firmware image holds frozen (firmware/port): the files an update need not send or store.
#
# The image freezes the application beside appimage.py (written by tafel_host/update/appimage.py
# at the image's build): the bundle path and SHA-256 of every frozen file, paths sorted.
# Frozen, both tuples live in flash; looking a file up allocates nothing.


def load():
    """The frozen appimage module, or None where the application is not frozen (stock MicroPython)."""
    try:
        import appimage

        return appimage
    except ImportError:
        return None


def holds(appimage, entry):
    """Whether the image holds exactly the manifest entry's file (same path, same SHA-256)."""
    files = appimage.FILES
    lo, hi = 0, len(files)
    while lo < hi:  # the paths are sorted: search in halves
        mid = (lo + hi) // 2
        if files[mid] < entry.path:
            lo = mid + 1
        else:
            hi = mid
    return lo < len(files) and files[lo] == entry.path and appimage.DIGESTS[lo] == entry.sha256
