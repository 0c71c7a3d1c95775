# Finding `tafel serve-update` on the Wi-Fi: one UDP datagram each way (docs/updates.md, "Wi-Fi").
#
#   device -> broadcast:DISCOVERY_PORT   ASK
#   server -> device                     b"TAFEL 1 <http port> <version>"
# The device asks and reads the reply (firmware/update/net.py), the laptop answers
# (host_tools/update/serve.py). Constants only: the device imports this while it searches.
from tafel.compat import const

DISCOVERY_PORT = const(7071)
HTTP_PORT = const(7070)  # tafel serve-update's default
ASK = b"TAFEL? 1"
