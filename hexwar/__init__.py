"""hexwar: historical hex-and-counter wargames in the terminal."""

__version__ = "0.1.0"
