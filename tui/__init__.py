"""The terminal UI (Textual): the shape of the package, top to bottom.

Imports point down only (``tests/test_layers.py`` checks it on every module):

    hexwar/cli_play.py, cli_net.py   entry points: the only importers of ``app``
    app.py          HexwarApp: theme, ASCII, the session being played, the router; notices are plain text
    router.py       Router: every screen by name (``SCREENS``) and the places that reset the stack
                    (``menu``, ``game``, ``new-game``, ``load``, ``network``, ``replay``)
    screen_*.py     the screens; none imports another screen, the router or the app. A screen
                    opens another by name, ``self.app.router.go("victory", session)``, and gets
                    its answer in ``then``; small dialogs (``screen_dialogs``) it pushes itself
    parts           everything else, used by screens and by each other:
        game_panels, game_gestures   the game screen's drawing and its keys (mixins of GameScreen)
        net_controls                 what a network session adds to the game screen
        campaign_flow                plans, battle reports and the campaign map between orders
        net_session                  NetStart, and the network session as the screen reads it
        session                      a local game (journal, undo, the computer's sides)
        _hex_map, _hex_faces, _hex_layout   the map widget: painting, each hex's face, geometry
        screen_dialogs               choose an order or a unit, ask, confirm, read a message
        describe, turn_summary, picking, keys, glyphs, themes, campaign_points, ascii_screen

The screens and how a player moves between them:

    menu ── scenarios ── sides ── level ──────────────┐
      │         └─ host-side ── network (host) ──┐    ├──> game ──> victory ──> replay
      ├── saved-games ── load ───────────────────┼────┘     │  └─> help, aid, overview, campaign
      │        └──────── replay                  │          │        └─> battle-report
      ├── join ── network (join) ────────────────┘          └─> plan, hand-over (campaign plans)
      ├── lobby (served) ── served-side, network (join / watch)
      └── settings

One game screen plays every game (hotseat, the computer, host, guest, spectator): a network
session gives it ``net_controls.NetControls``, which sends orders instead of playing them and
shows the session's events. Every string from outside the process (a peer, a file, a name)
reaches a widget as plain text (``hexwar.plaintext.plain_text``), never as markup.
"""
