# The one place that bridges MicroPython-only names for CPython.
try:
    from micropython import const
except ImportError:  # CPython: const() is just the value itself

    def const(value):
        return value
