"""The browser client in Chromium through Playwright, against a real server."""
