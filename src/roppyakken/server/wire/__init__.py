"""Messages: what clients and members send and receive, as declared models and message data."""
