# Signed application updates on the device (docs/updates.md): staging, switching, rollback, Wi-Fi.
#
# The bundle format and its checks (header, manifest, signature, files) are the core's,
# tafel/bundle/ (lib/), shared with the laptop's tools; this package does what only a device does:
#   stage.py     staging a bundle into the other slot, resumably (feed.py, switch.py, complete.py)
#   fetch.py     pulling a bundle over HTTP; net.py joining the Wi-Fi and finding a server
#   health.py    a new version proving itself, or the rollback
#   image.py     what a firmware image holds frozen
#   trusted.py   the public keys whose bundles this device accepts
#   errors.py, manifest.py   the old names of core modules, for callers not moved yet (link/, ui/)
