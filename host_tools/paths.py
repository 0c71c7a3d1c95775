# Where the laptop keeps Tafel's own files: one folder per user (history, export cursors, keys, port locks, the simulator's flash).
import sys
from pathlib import Path


def user_data_dir(platform=None):
    """Tafel's folder in the user's data directory, as platformdirs says (not created here):
    ~/.local/share/tafel or $XDG_DATA_HOME/tafel on Linux, ~/Library/Application Support/tafel on
    macOS, %APPDATA%\\tafel on Windows. `platform` (sys.platform's spelling) is for tests."""
    platform = sys.platform if platform is None else platform
    if platform.startswith("win"):
        from platformdirs.windows import Windows as Dirs
    elif platform == "darwin":
        from platformdirs.macos import MacOS as Dirs
    else:
        from platformdirs.unix import Unix as Dirs
    # appauthor=False: no publisher folder above ours; roaming: %APPDATA%, where Tafel always kept it
    folder = Path(Dirs("tafel", appauthor=False, roaming=True).user_data_dir)
    if not folder.is_absolute():  # a relative $XDG_DATA_HOME, which the XDG spec says to ignore
        folder = Path.home() / ".local" / "share" / "tafel"
    return folder
