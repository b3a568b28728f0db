"""Ruleset package (being written)."""
