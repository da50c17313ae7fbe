"""The web surface: HTTP, input, bounds, the protocol and its schema, views, wording, backlog,
collector, memory, deployment, the client's scripts."""
