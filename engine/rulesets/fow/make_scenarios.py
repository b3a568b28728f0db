"""Write the two campaign scenarios (designed maps and forces)."""
import sys

def units(side, comps):
    out = []
    for cid, name, point, kinds in comps:
        for i, k in enumerate(kinds, 1):
            out.append(f'[[units]]\nid = "{cid}-{i}"\nside = "{side}"\nkind = "{k}"\nhex = "{point}"\ndivision = "{cid}"\n')
    return out

def divisions(side, comps):
    return [f'[[divisions]]\nid = "{cid}"\nside = "{side}"\nname = "{name}"\n' for cid, name, _, _ in comps]

def air(side, kinds, prefix):
    return [f'[[units]]\nid = "{prefix}-air{i}"\nside = "{side}"\nkind = "{k}"\nbox = "air"\n' for i, k in enumerate(kinds, 1)]

def write(path, head, mapblock, sides, rules, victory, comps_a, comps_b, air_a, air_b):
    parts = [head, mapblock, sides, rules, victory]
    parts += divisions(*comps_a) + divisions(*comps_b)
    parts += units(*comps_a) + units(*comps_b) + air(*air_a) + air(*air_b)
    open(path, "w").write("\n".join(parts))

LEGEND = 'legend = { "." = "open", "s" = "scrub", "h" = "hills", "H" = "heights", "M" = "mountains", "T" = "town" }'

BH_HEAD = '''# Flanking move at Bir Hakeim (spec 25.5), the campaign's North African scenario.
# DESIGNED: the map, the deployment and every company are hexwar's inventions (G-02, G-08,
# G-51); only the force totals, the turn limit, the exit goal and the reinforcements are the source's.
[scenario]
id = "bir-hakeim"
title = "Flanking move at Bir Hakeim (1942)"
ruleset = "fow"
turns = 6
first_player = "british"
notes = """Scenario 5 of the seed (spec 25.5): 600 FP of a German panzer division must move 250 FP
off the map across the British (north) edge within 6 turns; 500 FP of British hold the strategic
initiative (G-51: kept as written, so the British must attack once in contact) and receive 20 FP of
reinforcements a turn, spent in a road point of their half. Edges per G-51: British north, Germans
south. Supply per G-49 with the desert step-down: Germans (under Rommel) poorly organised, 12 RP;
British organised, 15 RP. DESIGNED (not in the source): the map - a wadi crossing the map as a river
(row 4) with a ford at 0204, a road bridge at 0404 and the railway bridge at 0504, the Bir Hakeim box
(town, 0105), El Adem (0602) and Acroma (0301); the British deployment; every company (placeholder
catalogue, G-08)."""
'''
BH_MAP = '''[map]
width = 6
height = 6
orientation = "flat"
parity = "odd"
''' + LEGEND + '''
rows = [
  ". . T . . .",
  "s . . H . T",
  ". M . . h M",
  ". . . . . .",
  "T . s . . h",
  ". . . . . .",
]
roads = [["0306", "0305", "0404", "0403", "0303", "0302", "0301"],
         ["0206", "0205", "0204", "0203", "0202", "0201"],
         ["0105", "0205"], ["0602", "0502", "0402", "0302"]]
'''
BH_SIDES = '''[[sides]]
id = "british"
name = "British Eighth Army"
home_edge = "north"

[[sides]]
id = "german"
name = "Deutsches Afrikakorps"
home_edge = "south"
'''
BH_RULES = '''[rules]
si_side = "british"
desert_penalty = true
nations = { british = "britain", german = "germany-rommel" }
reinforcement_fp = { british = 20 }
railway = ["0501", "0502", "0503", "0504", "0505", "0506"]
rivers = [["0104", "0204", "0304", "0404", "0504", "0604"]]
crossings = { "0204" = "ford", "0404" = "road_bridge" }
objectives = ["0105"]
'''
BH_VICTORY = '''[victory]
type = "exit"
side = "german"
fp = 250
'''
german = ("german", [
    ("de-pz-a", "Panzer company A (designed)", "0306", ["de-pz3", "de-pz3"]),
    ("de-pz-b", "Panzer company B (designed)", "0506", ["de-pz4", "de-pz3"]),
    ("de-pgren", "Panzergrenadier company (designed)", "0406", ["de-pzgren", "de-pzgren"]),
    ("de-recce", "Aufklärung company (designed)", "0606", ["de-sdkfz222", "de-sdkfz222"]),
    ("de-arty", "Artillery battalion (designed)", "0406", ["de-lefh18"]),
])
british = ("british", [
    ("gb-box", "Bir Hakeim box (designed)", "0403", ["gb-rifles", "gb-rifles", "gb-25pdr", "gb-6pdr"]),
    ("gb-arm", "Armoured squadron (designed)", "0503", ["gb-grant", "gb-crusader"]),
    ("gb-motor", "Motor company (designed)", "0603", ["gb-motor", "gb-mortar"]),
    ("gb-recce", "Armoured car squadron (designed)", "0402", ["gb-humber", "gb-humber"]),
])
write("scenarios/bir-hakeim.toml", BH_HEAD, BH_MAP, BH_SIDES, BH_RULES, BH_VICTORY,
      british, german, ("british", ["gb-hurricane", "gb-kittyhawk"], "gb"),
      ("german", ["de-ju87", "de-bf109"], "de"))

ME_HEAD = '''# Meeting engagement (spec 30 item 10): the generic template on scenario 2's rules.
# DESIGNED: the map, both forces and the turn limit are hexwar's (G-02, G-08, G-52).
[scenario]
id = "meeting-engagement"
title = "Meeting engagement in the desert (generic)"
ruleset = "fow"
turns = 8
first_player = "axis"
notes = """The generic meeting engagement that spec section 30 proposes, reusing scenario 2 (25.2):
each side deploys within 2 points of its own edge and wins by destroying (or taking the surrender
of) 50 % of the enemy's companies, or by holding 3 points of the enemy's edge at the end of a turn.
Forces: scenario 2 rolls a die for 600-850 FP; this template fixes the roll at 3, 700 FP a side
(DESIGNED). The Axis holds the initiative as Denikin does in scenario 2. The source sets no turn
limit; 8 turns (the G-52 limit) is DESIGNED, after which the game is a draw (G-60). DESIGNED map:
a wadi as a river across row 3 with a ford (0203), a road bridge (0403) and the railway bridge
(0603); hills, scrub and two towns."""
'''
ME_MAP = '''[map]
width = 6
height = 6
orientation = "flat"
parity = "odd"
''' + LEGEND + '''
rows = [
  ". T . . s .",
  ". . h . . .",
  ". . . . . .",
  "s . . H . .",
  ". . . . T .",
  ". h . s . .",
]
roads = [["0401", "0402", "0403", "0404", "0405", "0406"],
         ["0201", "0202", "0203", "0204", "0205", "0206"],
         ["0505", "0405"]]
'''
ME_SIDES = '''[[sides]]
id = "axis"
name = "Axis battlegroup"
home_edge = "south"

[[sides]]
id = "allies"
name = "Allied brigade group"
home_edge = "north"
'''
ME_RULES = '''[rules]
si_side = "axis"
desert_penalty = true
nations = { axis = "germany-rommel", allies = "britain" }
railway = ["0601", "0602", "0603", "0604", "0605", "0606"]
rivers = [["0103", "0203", "0303", "0403", "0503", "0603"]]
crossings = { "0203" = "ford", "0403" = "road_bridge" }
'''
ME_VICTORY = '''[victory]
type = "meeting"
companies_percent = 50
edge_points = 3
'''
axis = ("axis", [
    ("ax-pz-a", "Panzer company A (designed)", "0406", ["de-pz3", "de-pz3"]),
    ("ax-pz-b", "Panzer company B (designed)", "0505", ["de-pz4", "de-pz3"]),
    ("ax-pgren", "Panzergrenadier company (designed)", "0205", ["de-pzgren", "de-pzgren", "de-pak38"]),
    ("ax-inf", "Schützen company (designed)", "0106", ["de-schutzen", "de-schutzen", "de-mortar"]),
    ("ax-arty", "Artillery battalion (designed)", "0306", ["de-lefh18", "de-flak88"]),
])
allies = ("allies", [
    ("al-arm-a", "Armoured squadron A (designed)", "0401", ["gb-grant", "gb-crusader"]),
    ("al-arm-b", "Armoured squadron B (designed)", "0502", ["gb-crusader", "gb-crusader"]),
    ("al-inf", "Rifle company (designed)", "0201", ["gb-rifles", "gb-rifles", "gb-6pdr"]),
    ("al-motor", "Motor company (designed)", "0302", ["gb-motor", "gb-motor", "gb-humber"]),
    ("al-arty", "Field regiment (designed)", "0101", ["gb-25pdr", "gb-25pdr"]),
])
write("scenarios/meeting-engagement.toml", ME_HEAD, ME_MAP, ME_SIDES, ME_RULES, ME_VICTORY,
      axis, allies, ("axis", ["de-bf109"], "ax"), ("allies", ["gb-kittyhawk", "gb-hurricane"], "al"))
