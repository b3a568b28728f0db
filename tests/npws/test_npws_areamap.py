"""The area board (engine/areamap.py) and a piece standing in a space (engine/state.py): the
spec's section 7.2 items 1-3 (neighbours from the connection list, sea zones as hyper-edges)."""

from hexwar.engine.areamap import AreaMap, Connection, SeaZone, Space
from hexwar.engine.codec import encode
from hexwar.engine.hexgrid import Hex
from hexwar.engine.hexmap import HexMap
from hexwar.engine.state import State, Unit


def _board() -> AreaMap:
    spaces = (
        Space("a", "Alpha", "normal"),
        Space("b", "Beta", "fertile", sea_zones=("north",)),
        Space("c", "Gamma", "poor", fort=2, sea_zones=("north", "south")),
        Space("d", "Delta", "normal", sea_zones=("south",)),
        Space("e", "Epsilon", "normal", sea_zones=("north",)),
        Space("island", "Island", "poor", sea_zones=("south",)),
    )
    lines = (Connection("a", "b"), Connection("b", "c"), Connection("c", "d", "pass"),
             Connection("a", "e"))
    seas = (SeaZone("north", "North Sea", "x"), SeaZone("south", "South Sea", "y"))
    return AreaMap(spaces, lines, seas)


def test_neighbours_come_from_the_connection_list_not_from_positions():
    board = _board()
    assert board.neighbors("a") == ("b", "e")
    assert board.neighbors("c") == ("b", "d")
    assert board.neighbors("island") == ()
    assert board.connection("d", "c").kind == "pass"
    assert board.connection("a", "c") is None


def test_a_sea_zone_joins_every_port_on_it_but_only_when_usable():
    board = _board()
    assert board.ports("north") == ("b", "c", "e")
    assert board.sea_neighbors("b", ["north"]) == ("c", "e")
    assert board.sea_neighbors("b", []) == ()
    # c touches two zones: through both it reaches the ports of each
    assert board.sea_neighbors("c", ["north", "south"]) == ("b", "d", "e", "island")
    assert board.sea_neighbors("c", ["south"]) == ("d", "island")
    assert board.sea_neighbors("a", ["north", "south"]) == ()  # not a port


def test_reach_combines_land_lines_and_usable_sea_zones():
    board = _board()
    assert board.reach("a", []) == ("a", "b", "c", "d", "e")
    assert "island" in board.reach("a", ["south"])
    # a space refused by passable cuts the land path, though the sea may go round it
    assert board.reach("a", [], passable=lambda s: s != "c") == ("a", "b", "e")
    assert board.reach("a", ["north"], passable=lambda s: s != "b") == ("a", "c", "d", "e")


def test_components_show_a_disconnected_map():
    board = _board()
    assert board.components() == [("a", "b", "c", "d", "e"), ("island",)]


def test_names_parse_back_to_ids():
    board = _board()
    assert board.parse("gamma") == "c"
    assert board.parse("c") == "c"
    assert board.label("d") == "Delta"
    assert board.kind == "area" and HexMap(2, 2).kind == "hex"


def test_a_unit_in_a_space_encodes_round_trips_and_digests_like_its_plain_data():
    s = State("npws", "t", units={
        "c1": Unit("c1", "alliance", "corps", "c1", "b", 2, 2),
        "h1": Unit("h1", "x", "inf", "h1", Hex(1, 2), 3, 3),
        "p1": Unit("p1", "alliance", "corps", "p1", None, 0, 2),
    })
    assert s.to_bytes() == encode(s.to_data())
    back = State.from_bytes(s.to_bytes())
    assert back.units["c1"].hex == "b" and back.units["h1"].hex == Hex(1, 2)
    assert back.digest() == s.digest() == s.copy().digest()
    assert [u.id for u in s.occupancy()["b"]] == ["c1"]
    s.units["c1"].hex = "c"
    s.shared_occupancy()
    s.units["c1"].hex = "d"
    assert [u.id for u in s.shared_occupancy()["d"]] == ["c1"]
    assert s.to_bytes() == encode(s.to_data())
