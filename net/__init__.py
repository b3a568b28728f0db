"""Everything that crosses a boundary: the journal file and network play over SSH.

``journal`` is the save/replay/evidence file; the rest is the networked match: ``framing`` and
``protocol`` (what may cross the wire), ``keys`` (who is trusted), ``server``/``client`` (asyncssh),
``session`` (the lockstep state machine a UI drives). NOTES.md describes the protocol.
"""
