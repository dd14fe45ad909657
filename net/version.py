"""The wire protocol version, kept apart so discovery can advertise it without importing the codec."""

PROTOCOL_VERSION = 5
