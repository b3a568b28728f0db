"""The names of the colour themes, apart from the themes themselves so that the command line can
list them without loading Textual."""

THEMES = ("default", "light", "high-contrast", "monochrome")
