"""Writes, one module per domain: events, registration, importing players, seating."""
