"""The bots: levels, expert, master, playouts, hints, hidden information, arena and Ray runs."""
