"""The served lobby's lines say whose turn it is in each of the player's matches."""

from hexwar.tui.screen_lobby import match_line


def row(**kw):
    base = {"id": "ab", "scenario": "border-clash", "turn": 3, "seats": {"red": "alice", "blue": "bob"},
            "to_act": "blue", "to_act_player": "bob", "over": False, "result": None, "side": "red",
            "your_turn": False, "code": None}
    base.update(kw)
    return base


def test_own_match_says_whose_turn():
    assert match_line(row(), "mine").endswith("you: red · bob's turn")
    assert "YOUR TURN" in match_line(row(to_act="red", to_act_player="alice", your_turn=True), "mine")


def test_own_match_with_an_open_seat_shows_its_invite_code():
    line = match_line(row(seats={"red": "alice", "blue": None}, to_act="blue", to_act_player=None,
                          code="abcd-efgh-jkmn"), "mine")
    assert "waiting for an opponent" in line and "invite code abcd-efgh-jkmn" in line
    mine_to_play = match_line(row(seats={"red": "alice", "blue": None}, to_act="red", your_turn=True), "mine")
    assert "YOUR TURN (the other seat is still open)" in mine_to_play


def test_open_and_watched_matches():
    assert match_line(row(seats={"red": "alice", "blue": None}, side="blue"), "open").endswith("join as blue")
    assert match_line(row(over=True, result={"winner": "red", "reason": "blue resigned"}), "watch").endswith(
        "over: red (blue resigned)")
    assert "(open)" in match_line(row(seats={"red": "alice", "blue": None}), "open")


async def test_the_lobby_screen_lists_and_keeps_its_place_on_refresh():
    """A Textual pilot: the lobby shows the three lists and, refreshed, stays on the same match."""
    from textual.widgets import OptionList

    from hexwar.tui.app import HexwarApp
    from hexwar.tui.screen_lobby import ServedLobbyScreen

    data = {"mine": [row(id="m1"), row(id="m2", your_turn=True, to_act="red")],
            "open": [row(id="o1", seats={"red": "cy", "blue": None}, side="blue")], "watch": []}
    app = HexwarApp(served="alice")
    async with app.run_test(size=(100, 30)) as pilot:
        screen = ServedLobbyScreen()
        screen.action_refresh = lambda: None   # no server here: the test hands the data in
        await app.push_screen(screen)
        screen.show(data)
        await pilot.pause()
        listing = screen.query_one("#lobby-list", OptionList)
        texts = [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]
        assert texts[0].startswith("— Your matches (2)") and "YOUR TURN" in texts[2]
        assert any("join as blue" in t for t in texts)
        assert "1 of your matches waits for you" in str(screen.query_one("#lobby-status").render())
        listing.highlighted = 2
        screen.show(dict(data, mine=[data["mine"][1]] + [data["mine"][0]]))   # order changed
        assert screen.rows[listing.highlighted][1]["id"] == "m2"
