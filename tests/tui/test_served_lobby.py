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
