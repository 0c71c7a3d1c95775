# Where the laptop keeps Tafel's own files: one folder per user (history, export cursors, keys, port locks, the simulator's flash).
import os
import sys
from pathlib import Path


def user_data_dir(platform=None, env=None, home=None):
    """Tafel's folder in the user's data directory (not created here)."""
    platform = sys.platform if platform is None else platform
    env = os.environ if env is None else env
    home = Path.home() if home is None else Path(home)
    if platform.startswith("win"):
        base = Path(env["APPDATA"]) if env.get("APPDATA") else home / "AppData" / "Roaming"
    elif platform == "darwin":
        base = home / "Library" / "Application Support"
    else:
        xdg = env.get("XDG_DATA_HOME", "")
        base = Path(xdg) if os.path.isabs(xdg) else home / ".local" / "share"  # relative XDG paths are ignored
    return base / "tafel"
