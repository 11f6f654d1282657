"""Several nodes: table leases, relayed WebSockets and forwarded lobby requests."""
