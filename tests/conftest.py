"""Shared test helpers live beside this file (``live_server``); pytest puts this folder on the
import path because it holds a conftest.py."""
