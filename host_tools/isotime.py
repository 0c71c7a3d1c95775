# Times as exports write them: epoch seconds <-> ISO 8601 UTC ("2025-03-01T18:00:00Z"); None for a clock never set.
import calendar
import time

FORMAT = "%Y-%m-%dT%H:%M:%SZ"


def iso(epoch):
    """Epoch seconds as ISO 8601 UTC; None for 0 (the device clock was not set)."""
    if not epoch:
        return None
    return time.strftime(FORMAT, time.gmtime(epoch))


def epoch(iso_text):
    """ISO 8601 UTC as iso() writes it, back to epoch seconds (None stays None)."""
    if not iso_text:
        return None
    return calendar.timegm(time.strptime(iso_text, FORMAT))
