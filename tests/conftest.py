"""Shared test settings: hypothesis keeps runs short so the whole suite stays fast."""

from hypothesis import settings

settings.register_profile("hexwar", max_examples=200, deadline=None)
settings.load_profile("hexwar")
