"""The web application: its routes, websockets, guards, request bodies, serving, metrics, config."""
