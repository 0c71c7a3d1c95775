# The laptop side of Tafel (installed as tafel_host): CLI and tools that talk to the device.
from tafel.version import VERSION as __version__  # noqa: F401 (the package's version, for importers)
