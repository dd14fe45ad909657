"""Front doors for guests who installed nothing: a browser (`web`) and SSH (`ssh`).

Every door runs an ordinary client once per guest, bound to the host's own table over loopback
TCP (`guest` for a browser tab; `ssh_guest` for an SSH login, after the door's own name prompt):
the server cannot tell a door guest from a `fengsheng join` client.
"""
