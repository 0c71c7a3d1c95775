# The board profile kept in the ESP32's NVS beside /board.json: the pins recovery mode needs when the flash does not mount.
#
# tafel flash puts the profile at the flash's root, where a boot whose file
# system does not mount cannot read it. So every boot that mounts compares it
# with the copy in NVS (ESP-IDF's key-value partition, apart from the file
# system) and writes that copy only when the profile changed. Without a copy
# (or off the chip) recovery runs without display and keys: the USB link alone.
from micropython import const

KEY = "board"
_NAMESPACE = "tafel"
_MAX = const(2048)  # a profile is about 1 KB


def remember(path="/board.json"):
    """After a good mount: the profile's bytes into NVS when they differ from the copy there."""
    try:
        with open(path, "rb") as f:
            data = f.read(_MAX + 1)
    except OSError:
        return
    nvs = _nvs()
    if nvs is None or len(data) > _MAX or _get(nvs) == data:
        return
    nvs.set_blob(KEY, data)
    nvs.commit()


def kept():
    """The profile's bytes kept in NVS, or None."""
    nvs = _nvs()
    return _get(nvs) if nvs is not None else None


def recall():
    """The profile kept in NVS as a dict, or None."""
    data = kept()
    if not data:
        return None
    import json

    try:
        return json.loads(data)
    except ValueError:
        return None


def _nvs():
    try:
        import esp32

        return esp32.NVS(_NAMESPACE)
    except (ImportError, AttributeError, OSError):  # not an ESP32 (the unix port, the simulator)
        return None


def _get(nvs):
    buf = bytearray(_MAX)
    try:
        n = nvs.get_blob(KEY, buf)
    except OSError:  # none kept yet
        return None
    return bytes(buf[:n])
