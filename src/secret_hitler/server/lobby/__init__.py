"""The lobby: every live table of this node (the hub), hosting, moderation, webhooks."""
