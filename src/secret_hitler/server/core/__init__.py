"""Foundations every other part uses: errors, the wire protocol, text rules, settings, logs, metrics, limits."""
