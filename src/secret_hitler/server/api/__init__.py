"""The HTTP routes and the WebSocket endpoint."""
