"""One module per screen: lobby, table lobby, table, game over, help, settings, replay."""
