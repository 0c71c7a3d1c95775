# The club evening's hub: tables report their records over MQTT (docs/club.md).
