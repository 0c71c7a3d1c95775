# The application version: the one place it is written (firmware, CLI and package read it).
VERSION = "0.1.0"
