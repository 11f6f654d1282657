"""The multiplayer server: lobby, WebSocket games, bots, persistence (docs/server.md).

``create_app(settings)`` in ``server.app`` builds the ASGI application; ``secret-hitler serve``
(``server.cli``) runs it with uvicorn.
"""
