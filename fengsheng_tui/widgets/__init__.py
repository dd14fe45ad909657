"""Small widgets of the table, each rendering one part of `ClientState`."""
