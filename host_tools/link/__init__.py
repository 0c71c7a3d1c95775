# The laptop's end of the USB serial link: the client, the export stream, ports, and the commands that talk to a device.
