"""What the tests share and nothing they test: servers, services, clients, seeds, polls."""
