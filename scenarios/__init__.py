"""Scenario files and their loader."""
