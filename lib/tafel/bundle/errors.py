# The one exception the updater raises to its callers (UI, link, boot).
#
# `key` is a short stable text the UI translates (German/English), `detail`
# optional values for the message or the log. An update is refused as a whole:
# after any of these, nothing has been switched (docs/updates.md).
# Keys used (in the order a bundle is checked):
#   not_bundle     the data is no Tafel update bundle (wrong magic)
#   format         a bundle format this device cannot read; detail = format number
#   too_large      larger than allowed; detail = (bytes, limit)
#   truncated      the bundle ends early; detail = the part being read
#                  ("header", "manifest", "signature" or a file's path)
#   foreign_key    signed with a key this device does not trust; detail = key id (hex)
#   bad_signature  the signature does not match: header, manifest or signature altered
#   bad_manifest   signed, but not a manifest this device understands; detail = line number
#   wrong_mpy      compiled for another MicroPython bytecode version; detail = (bundle, device)
#   needs_boot     needs a newer boot.py than the device has; detail = (needed, present)
#   downgrade      older than the running version and downgrade not signed in;
#                  detail = (bundle version, running version)
#   same_version   the running version already; detail = version
#   incomplete_app no whole application: detail = None (no files at all) or the path it lacks
#                  ("main.py", "update/trusted.mpy", "lib/tafel/version.mpy"); at the head
#                  (bundle/parts.py check_app) and again at the switch (update/complete.py)
#   bad_file       a file does not match its manifest entry; detail = (path, what):
#                  what is "sha256", "size", "inflate" (not a valid deflate stream)
#                  or "length" (its stored bytes are not all used)
#   trailing_data  bytes follow the last file; detail = None
#   version_mismatch  the new slot's lib/tafel/version.mpy (or the image's version, if the image
#                  holds that file) says another VERSION than the manifest; detail = (what it
#                  says, None if it cannot be read, manifest version); at the switch (update/complete.py)


class UpdateError(Exception):
    def __init__(self, key, detail=None):
        super().__init__(key, detail)
        self.key = key
        self.detail = detail
