"""The web server, by concern."""
