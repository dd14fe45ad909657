"""Front doors for guests who installed nothing: a browser (`web`) and, with ssh-door, SSH.

Every door runs the ordinary client (`guest`) once per guest, bound to the host's own table over
loopback TCP: the server cannot tell a door guest from a `fengsheng join` client.
"""
