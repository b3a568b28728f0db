"""Everything that crosses a boundary: the journal file now, the SSH transport later."""
