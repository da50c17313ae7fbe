"""The terminal game, driven headless."""
