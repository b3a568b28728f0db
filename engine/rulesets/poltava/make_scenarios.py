"""Writes scenarios/poltava-1.toml and scenarios/poltava-2.toml (run: python -m ... make_scenarios).

The map, roster and set-ups are designed data (the source has no map or counter values); the
reasoning is in NOTES.md ("Data design"). Coordinates here are 1-based (column, row), flat-top
hexes, odd columns shifted down, north = row 1. 150 m per hex: 32 x 40 hexes = 4.8 x 6 km.
"""

from __future__ import annotations

import sys
from pathlib import Path

from hexwar.engine.hexgrid import hex_linedraw, hex_neighbor, axial_to_offset, offset_to_axial

W, H = 32, 40
REDOUBT_ROW = 20            # the Redoubt Line runs along the south edge of row 20
TRANSVERSE = [(8, 20), (10, 20), (12, 20), (14, 20), (16, 20), (18, 20)]
FORWARD = [(13, 23), (13, 25), (13, 27), (13, 29)]      # the last two unfinished
UNFINISHED = {(13, 27), (13, 29)}
BATTERIES = [(19, 4), (19, 7), (19, 10), (19, 13), (22, 13), (26, 13)]
# villages: Yakovtsy just north of the camp; Maly Budyshchi on the west edge of the field at the
# end of the Budyshchi road; Tachtaulova on the Swedish approach by the Poltava ravine; Pobivanka
# on the Vorskla bank to the south-east; Pavlenki, Poltava's northern suburb, on the south edge
YAKOVTSY = [(22, 1), (23, 2), (24, 1), (24, 2)]
MALY_BUDYSHCHI = [(5, 9), (5, 10), (4, 10)]
TACHTAULOVA = [(8, 35), (8, 36), (9, 36)]
POBIVANKA = [(25, 36), (26, 36)]
PAVLENKI = [(22, 39), (23, 40)]
VILLAGES = YAKOVTSY + MALY_BUDYSHCHI + TACHTAULOVA + POBIVANKA + PAVLENKI
HILLS = [(11, 2), (12, 2), (12, 3), (21, 35), (20, 36)]

# The Vorskla and its marshy valley (impassable river hexes) from this column east, rows 1..40:
# hard under the steep bank behind the camp, a wider marsh behind the Yakovtsy wood and south.
RIVER = [27, 28, 29, 29, 30, 30, 30, 29, 29, 30, 30, 30, 29, 28, 28, 27, 27, 28, 28, 29,
         29, 28, 28, 27, 27, 28, 29, 29, 29, 30, 30, 29, 28, 28, 29, 30, 31, 31, 30, 30]
# Budyshchi wood (west edge): woods up to this column, rows 1..40; it bulges east to the first
# redoubt (0820) and thins out toward Tachtaulova.
WEST = [2, 3, 3, 2, 3, 4, 4, 3, 4, 3, 3, 4, 5, 5, 4, 5, 6, 6, 7, 7,
        7, 6, 7, 6, 6, 5, 6, 5, 4, 5, 4, 3, 3, 2, 2, 1, 2, 2, 1, 1]
# Yakovtsy / Maly Budyshchi woods (east, between the field and the Vorskla): woods from this
# column to the river, by row; the gap between the two woods is closed by the six cross redoubts.
EAST = {16: 25, 17: 23, 18: 22, 19: 21, 20: 20, 21: 20, 22: 21, 23: 20, 24: 21, 25: 22,
        26: 21, 27: 22, 28: 22, 29: 23, 30: 22, 31: 24, 32: 25, 33: 27}
COPSES = [(24, 34), (25, 34), (24, 35), (6, 29), (6, 31)]     # outliers south of the ravine
# The retrenched camp: its columns on each row (redans where the batteries stand on the west face,
# a bastion on the south face); its back is the steep bank of the Vorskla.
CAMP = {3: (21, 28), 4: (19, 28), 5: (20, 29), 6: (20, 29), 7: (19, 29), 8: (20, 28), 9: (20, 28),
        10: (19, 29), 11: (20, 29), 12: (20, 29), 13: (19, 27), 14: (23, 25)}
# Streams and ravines (hexside `stream`): the boundary row under each column, north side <= row.
RAVINES = {
    # the Yakovtsy ravine, across the north of the field between the camp and the Budyshchi wood
    "Yakovtsy ravine": {4: 3, 5: 3, 6: 2, 7: 2, 8: 3, 9: 3, 10: 4, 11: 4, 12: 4, 13: 3, 14: 3,
                        15: 2, 16: 2, 17: 2, 18: 3},
    # the ravine by the Budyshchi wood where the Swedish infantry re-formed behind the redoubts
    "Budyshchi ravine": {7: 25, 8: 25, 9: 24, 10: 24, 11: 23},
    # the gully out of the Yakovtsy wood east of the forward redoubts (Roos's trap)
    "Yakovtsy gully": {15: 27, 16: 27, 17: 26, 18: 26, 19: 27, 20: 27, 21: 28},
    # the ravines north of Poltava, by Tachtaulova, across the Swedish approach
    "Poltava ravine": {4: 31, 5: 31, 6: 32, 7: 32, 8: 33, 9: 33, 10: 34, 11: 34, 12: 33, 13: 33,
                       14: 32, 15: 32, 16: 33, 17: 33, 18: 34, 19: 34, 20: 33, 21: 33, 22: 32,
                       23: 32, 24: 33, 25: 33, 26: 32, 27: 32},
}


def river_col(r):
    return RIVER[r - 1]


def camp(c, r):
    lo_hi = CAMP.get(r)
    return bool(lo_hi) and lo_hi[0] <= c <= lo_hi[1] and c < river_col(r)


def woods(c, r):
    return c <= WEST[r - 1] or (r in EAST and c >= EAST[r]) or (c, r) in COPSES


def terrain(c, r):
    if c >= river_col(r):
        return "~"
    if woods(c, r):
        return "W"
    if (c, r) in VILLAGES:
        return "V"
    if (c, r) in HILLS:
        return "h"
    if (c, r) in TRANSVERSE or (c, r) in FORWARD:
        return "R"
    if (c, r) in BATTERIES:
        return "B"
    if camp(c, r):
        return "C"
    return "."


def ax(c, r):
    return offset_to_axial(c - 1, r - 1, "flat", "odd")


def lab(c, r):
    return f"{c:02d}{r:02d}"


def lab_ax(h):
    c, r = axial_to_offset(h, "flat", "odd")
    return lab(c + 1, r + 1)


def off(h):
    c, r = axial_to_offset(h, "flat", "odd")
    return c + 1, r + 1


def neighbours(c, r):
    out = []
    for d in range(6):
        n = off(hex_neighbor(ax(c, r), d))
        if 1 <= n[0] <= W and 1 <= n[1] <= H:
            out.append(n)
    return out


def road(*points):
    chain = []
    for a, b in zip(points, points[1:]):
        seg = hex_linedraw(ax(*a), ax(*b))
        if chain:
            seg = seg[1:]
        chain.extend(seg)
    return [lab_ax(h) for h in chain]


def hexsides():
    retr, line, stream, bank = [], [], [], []
    seen = set()
    for c in range(1, W + 1):
        for r in range(1, H + 1):
            for n in neighbours(c, r):
                key = tuple(sorted([(c, r), n]))
                if key in seen:
                    continue
                seen.add(key)
                pair = [lab(*key[0]), lab(*key[1])]
                ta, tb = terrain(c, r), terrain(*n)
                if "~" in (ta, tb) and (camp(c, r) or camp(*n)):
                    bank.append(pair)           # the steep bank of the Vorskla behind the camp
                if "~" in (ta, tb) or "W" in (ta, tb):
                    continue
                if camp(c, r) != camp(*n):
                    retr.append(pair)
                elif (r <= REDOUBT_ROW) != (n[1] <= REDOUBT_ROW):
                    line.append(pair)
                else:
                    for cols in RAVINES.values():
                        if c in cols and n[0] in cols and (r <= cols[c]) != (n[1] <= cols[n[0]]):
                            stream.append(pair)
                            break
    return retr, line, stream, bank


RU_INF = [  # id, name, abbrev, kind, division
    ("preobrazhensky", "Preobrazhensky Guards", "Преображ.", "ru-guard", "gn"),
    ("semyonovsky", "Semyonovsky Guards", "Семенов.", "ru-guard", "gn"),
    ("bilt-gren", "Bilt's Grenadiers", "Гр. Бильта", "ru-guard", "gn"),
    ("astrakhan", "Astrakhan Infantry", "Астрахан.", "ru-inf", "gn"),
    ("ingermanland", "Ingermanland Infantry", "Ингерм.", "ru-inf", "gn"),
    ("lacy-gren", "Lacy's Grenadiers", "Гр. Ласси", "ru-guard", "gn"),
    ("kiev", "Kiev Infantry", "Киев.", "ru-inf", "gn"),
    ("narva", "Narva Infantry", "Нарв.", "ru-inf", "rp"),
    ("schlusselburg", "Schlüsselburg Infantry", "Шлиссбг.", "ru-inf", "rp"),
    ("butyrsky", "Butyrsky Infantry", "Бутыр.", "ru-inf", "rp"),
    ("novgorod", "Novgorod Infantry", "Новгород.", "ru-inf", "rp"),
    ("busch-gren", "Busch's Grenadiers", "Гр. Буша", "ru-guard", "rp"),
    ("siberia", "Siberia Infantry", "Сибир.", "ru-inf", "rp"),
    ("moscow", "Moscow Infantry", "Москов.", "ru-inf", "rp"),
    ("kazan", "Kazan Infantry", "Казан.", "ru-inf", "al"),
    ("pskov", "Pskov Infantry", "Псков.", "ru-inf", "al"),
    ("nizhny", "Nizhny Novgorod Infantry", "Нижегор.", "ru-inf", "al"),
    ("deboa-gren", "de Boa's Grenadiers", "Гр. де Боа", "ru-guard", "al"),
    ("apraksin", "Apraksin's Infantry", "Апраксина", "ru-inf", "al"),
    ("lefort", "Lefort's Infantry", "Лефорта", "ru-inf", "al"),
    ("rentzel-inf", "Rentzel's Infantry", "Ренцеля", "ru-inf", "rc"),
    ("rostov", "Rostov Infantry", "Ростов.", "ru-inf", "rc"),
    ("troitsky", "Troitsky Infantry", "Троиц.", "ru-inf", "rc"),
    ("yamburg", "Yamburg Infantry", "Ямбург.", "ru-inf", "lg"),
    ("koporye", "Koporye Infantry", "Копор.", "ru-inf", "lg"),
]
RU_CAV = [
    ("tver-dr", "Tver Dragoons", "Твер. Др.", "ru-drag", "mn"),
    ("ryazan-dr", "Ryazan Dragoons", "Рязан. Др.", "ru-drag", "mn"),
    ("novotroitsk-dr", "Novotroitsk Dragoons", "Новотр. Др.", "ru-drag", "mn"),
    ("azov-dr", "Azov Dragoons", "Азов. Др.", "ru-drag", "mn"),
    ("voronezh-sq", "Voronezh Squadron", "Ворон. Шк.", "ru-sqn", "mn"),
    ("menshikov-sq", "Menshikov's Life Squadron", "Л.-Шк. Мнш.", "ru-sqn", "mn"),
    ("life-dr", "Life Dragoons", "Л.-Драгун.", "ru-drag", "mn"),
    ("kiev-dr", "Kiev Dragoons", "Киев. Др.", "ru-drag", "bm"),
    ("ingermanland-dr", "Ingermanland Dragoons", "Ингерм. Др.", "ru-drag", "bm"),
    ("vologda-dr", "Vologda Dragoons", "Волог. Др.", "ru-drag", "bm"),
    ("nevsky-dr", "Nevsky Dragoons", "Невск. Др.", "ru-drag", "bm"),
    ("belozersk-dr", "Belozersk Dragoons", "Белозер. Др.", "ru-drag", "bm"),
    ("vyatka-dr", "Vyatka Dragoons", "Вят. Др.", "ru-drag", "bm"),
    ("nizhny-dr", "Nizhny Novgorod Dragoons", "Нижег. Др.", "ru-drag", "sb"),
    ("siberia-dr", "Siberia Dragoons", "Сиб. Др.", "ru-drag", "sb"),
    ("vladimir-dr", "Vladimir Dragoons", "Влад. Др.", "ru-drag", "sb"),
    ("moscow-dr", "Moscow Dragoons", "Моск. Др.", "ru-drag", "sb"),
    ("ropp-hg", "Ropp's Horse Grenadiers", "К/гр. Роппа", "ru-hgren", "sb"),
    ("rozhnov-hg", "Rozhnov's Horse Grenadiers", "К/гр. Рожнова", "ru-hgren", "sb"),
    ("novgorod-dr", "Novgorod Dragoons", "Новгор. Др.", "ru-drag", "rc"),
    ("yaroslavl-dr", "Yaroslavl Dragoons", "Ярослав. Др.", "ru-drag", "rc"),
    ("kropotov-hg", "Kropotov's Horse Grenadiers", "К/гр. Кроп.", "ru-hgren", "rc"),
    ("arkhangelsk-dr", "Arkhangelsk Dragoons", "Арханг. Др.", "ru-drag", "rc"),
]
# 18 Swedish battalions of the 10 regiments, OdB numbers 1..18 from the right flank
SW_INF = [
    ("lg1", "Life Guards I", "Лейб-Гв.", "sw-guard"), ("lg2", "Life Guards II", "Лейб-Гв.", "sw-guard"),
    ("lg3", "Life Guards III", "Лейб-Гв.", "sw-guard"), ("lg4", "Life Guards IV", "Лейб-Гв.", "sw-guard"),
    ("skaraborg1", "Skaraborg I", "Скараборг.", "sw-inf"), ("skaraborg2", "Skaraborg II", "Скараборг.", "sw-inf"),
    ("kalmar", "Kalmar", "Кальмар.", "sw-inf"),
    ("dalarna1", "Dalecarlia I", "Далекарл.", "sw-inf"), ("dalarna2", "Dalecarlia II", "Далекарл.", "sw-inf"),
    ("uppland1", "Uppland I", "Упланд.", "sw-inf"), ("uppland2", "Uppland II", "Упланд.", "sw-inf"),
    ("ostergotland1", "Östergötland I", "Эстергётл.", "sw-inf"),
    ("ostergotland2", "Östergötland II", "Эстергётл.", "sw-inf"),
    ("vasterbotten1", "Västerbotten I", "Вестерб.", "sw-inf"), ("vasterbotten2", "Västerbotten II", "Вестерб.", "sw-inf"),
    ("jonkoping", "Jönköping", "Иончёп.", "sw-inf"),
    ("narke", "Närke-Värmland", "Нёрке-Вермл.", "sw-inf"),
    ("vastmanland", "Västmanland", "Вестман.", "sw-inf"),
]
S1_ABSENT = {"skaraborg2", "kalmar", "dalarna2", "ostergotland2", "vasterbotten1", "vasterbotten2",
             "jonkoping", "narke"}
SW_CAV = [
    ("drabants", "Life Drabants", "Лейб-Драб.", "sw-drabant", "cr"),
    ("lg-horse", "Life Guard Horse", "Л.-Гв. Кон.", "sw-cav", "cr"),
    ("nyland", "Nyland Cavalry", "Нюланд.", "sw-cav", "cr"),
    ("smaland", "Småland Cavalry", "Смоланд.", "sw-cav", "cr"),
    ("uppland-res", "Uppland Reserve Cavalry", "Уппланд. рез.", "sw-cav", "cr"),
    ("abo", "Åbo Cavalry", "Або", "sw-cav", "cr"),
    ("ostgota-cav", "Östergötland Cavalry", "Остготл.", "sw-cav", "cr"),
    ("n-scania", "North Scanian Cavalry", "Сев.-Скон.", "sw-cav", "ha"),
    ("s-scania", "South Scanian Cavalry", "Юж.-Скон.", "sw-cav", "ha"),
    ("life-dragoons", "Life Dragoons", "Лейб-Драг.", "sw-cav", "ha"),
    ("scanian-dr", "Scanian Dragoons", "Скон. Др.", "sw-cav", "ha"),
    ("hielm-dr", "Hielm's Dragoons", "Др. Эльма", "sw-cav", "ha"),
    ("taube-dr", "Taube's Dragoons", "Др. Таубе", "sw-cav", "ha"),
    ("ducker-dr", "Dücker's Dragoons", "Др. Дюккера", "sw-cav", "ha"),
    ("gyllenstierna-dr", "Gyllenstierna's Dragoons", "Др. Юлленш.", "sw-cav", "ha"),
]
# Rout numbers (M10, printed on the map, so the same in both scenarios). Russian divisions use the
# spec's placeholder, 40 % of their counters rounded up. Swedish divisions fight on to about 5/6 of
# their counters: the Carolean battalions and squadrons were destroyed in place at Poltava rather
# than broken, and S1 starts with 8 of Lewenhaupt's 18 battalions already in his box. Tuned with
# benchmarks/balance.py (figures in NOTES.md).
DIVISIONS = [
    ("gn", "russia", "Golitsyn's division (Гн)", 3),
    ("rp", "russia", "Repnin's division (Рп)", 3),
    ("al", "russia", "Allart's division (Ал)", 3),
    ("mn", "russia", "Menshikov's cavalry (Мн)", 3),
    ("bm", "russia", "Bem's cavalry (Бм)", 3),
    ("sb", "russia", "Schaumburg's cavalry (Шб)", 3),
    ("lg", "russia", "the Camp (Лг)", 1),
    ("rc", "russia", "Rentzel's detachment (Рц)", 3),
    ("le", "sweden", "Lewenhaupt's infantry", 15),
    ("cr", "sweden", "Creutz's cavalry (right wing)", 6),
    ("ha", "sweden", "Hamilton's cavalry (left wing)", 6),
    ("roos", "sweden", "Roos column (formed in play, S2-4; no rout number, destroyed by Rentzel)", None),
]


def q(s):
    return '"' + s.replace('"', '\\"') + '"'


def unit(uid, side, kind, name, hex_=None, division=None, stats=None, entry=None, absent=False):
    lines = ["[[units]]", f"id = {q(uid)}", f"side = {q(side)}", f"kind = {q(kind)}", f"name = {q(name)}"]
    if division:
        lines.append(f"division = {q(division)}")
    if hex_:
        lines.append(f"hex = {q(lab(*hex_))}")
    if entry:
        lines.append("entry_turn = 1")
        lines.append(f"entry_hexes = [{q(lab(*entry))}]")
    if absent:
        lines.append('box = "rout"')
    st = dict(stats or {})
    if st:
        items = ", ".join(f"{k} = {q(v) if isinstance(v, str) else ('true' if v is True else v)}" for k, v in st.items())
        lines.append(f"stats = {{ {items} }}")
    return "\n".join(lines) + "\n"


def map_block(labels):
    rows = []
    for r in range(1, H + 1):
        rows.append('  "' + " ".join(terrain(c, r) for c in range(1, W + 1)) + '",')
    retr, line, stream, bank = hexsides()
    out = ["[map]", f"width = {W}", f"height = {H}", 'orientation = "flat"', 'parity = "odd"',
           'default_terrain = "open"',
           'legend = { "." = "open", "W" = "woods", "V" = "village", "h" = { terrain = "hill", elevation = 1 }, '
           '"R" = "redoubt", "C" = "camp", "B" = "battery", "~" = "river" }',
           "rows = [", *rows, "]"]
    roads = [road(*rd) for rd in ROADS]
    out.append("roads = [" + ", ".join("[" + ", ".join(q(x) for x in rd) + "]" for rd in roads) + "]")
    out.append("labels = { " + ", ".join(f"{q(k)} = {q(v)}" for k, v in labels.items()) + " }")
    for feat, pairs in (("retrenchment", retr), ("redoubt_line", line), ("stream", stream),
                        ("impassable", bank)):
        out.append("\n[[map.hexsides]]")
        out.append(f"feature = {q(feat)}")
        out.append("between = [" + ", ".join(f"[{q(a)}, {q(b)}]" for a, b in pairs) + "]")
    return "\n".join(out) + "\n"


ROADS = [
    # the Poltava road north through the forward redoubts and the gap to the camp's south gate
    ((17, 40), (17, 35), (16, 29), (17, 21), (18, 15), (20, 13), (23, 8)),
    ((23, 8), (23, 1)),                                         # camp - Yakovtsy
    ((4, 10), (9, 11), (14, 9), (18, 9)),                       # the Budyshchi road to the camp
    # from the Swedish camp (south-west) by Tachtaulova, west of the forward redoubts, to the
    # Budyshchi road
    ((8, 40), (8, 36), (10, 30), (11, 21), (12, 15), (14, 9)),
    ((25, 36), (22, 39), (17, 40)),                             # Pobivanka - Pavlenki - Poltava
]
LABELS = {"Yakovtsy": "2302", "Russian camp": "2308", "Budyshchi wood": "0210", "Yakovtsy wood": "2524",
          "Vorskla": "3120", "Redoubt Line (centre)": "1220", "Maly Budyshchi": "0510",
          "Tachtaulova": "0836", "Pobivanka": "2536", "Pavlenki": "2239", "Poltava road": "1740",
          "Yakovtsy ravine": "1003", "Poltava ravine": "1234", "Swedish camp road": "0840"}


def sides_block(sweden_edge: str, russia_edge: str) -> str:
    """Both armies, with the map edge each calls home (it differs between the scenarios)."""
    return (f'[[sides]]\nid = "sweden"\nname = "Swedish army of Charles XII"\nhome_edge = "{sweden_edge}"\n\n'
            f'[[sides]]\nid = "russia"\nname = "Russian army of Peter I"\nhome_edge = "{russia_edge}"\n\n')


def divisions_block(ids):
    out = []
    for d, side, name, thr in DIVISIONS:
        if d in ids:
            thr_line = f"rout_threshold = {thr}\n" if thr is not None else ""
            out.append(f"[[divisions]]\nid = {q(d)}\nside = {q(side)}\nname = {q(name)}\n{thr_line}")
    return "\n".join(out)


def scenario1():
    u = []
    # Russian infantry in ordre de bataille in front of the retrenchment (S1 [L345])
    ru_line = [x for x in RU_INF if x[4] in ("gn", "rp", "al")]
    first = [(16, r) for r in range(4, 16)]
    second = [(18, r) for r in range(5, 13)]
    spots = first + second
    for i, (uid, name, ab, kind, div) in enumerate(ru_line):
        u.append(unit(uid, "russia", kind, name, spots[i], div, {"abbrev": ab, "odb": i + 1}))
    for (uid, name, ab, kind, div), h in zip([x for x in RU_INF if x[4] == "lg"], [(22, 6), (22, 9)]):
        u.append(unit(uid, "russia", kind, name, h, div, {"abbrev": ab}))
    cav_spots = {"mn": [(12, 17), (13, 17), (14, 17), (15, 17), (16, 17), (14, 18), (16, 18)],
                 "bm": [(13, 1), (14, 1), (15, 1), (16, 1), (17, 1), (18, 1)],
                 "sb": [(14, 2), (15, 2), (16, 2), (17, 2), (18, 2), (19, 2)]}
    for div, spots_ in cav_spots.items():
        for (uid, name, ab, kind, d), h in zip([x for x in RU_CAV if x[4] == div], spots_):
            u.append(unit(uid, "russia", kind, name, h, d, {"abbrev": ab}))
    u += _artillery() + _cossacks()
    u.append(unit("peter", "russia", "leader", "Peter I", (16, 8)))
    u.append(unit("sheremetev", "russia", "leader", "Field Marshal Sheremetev", (16, 11)))
    u.append(unit("menshikov", "russia", "leader", "Prince Menshikov", (14, 17)))
    u.append(unit("repnin", "russia", "leader", "Prince Repnin", (18, 8)))
    # Swedish line opposite (grey numbers), 8 battalions absent with Roos
    present = [x for x in SW_INF if x[0] not in S1_ABSENT]
    for i, (uid, name, ab, kind) in enumerate(present):
        odb = [x[0] for x in SW_INF].index(uid) + 1
        u.append(unit(uid, "sweden", kind, name, (10, 15 - i), "le", {"abbrev": ab, "odb": odb}))
    for uid, name, ab, kind in SW_INF:
        if uid in S1_ABSENT:
            odb = [x[0] for x in SW_INF].index(uid) + 1
            u.append(unit(uid, "sweden", kind, name + " (cut off with Roos)", None, "le",
                          {"abbrev": ab, "odb": odb}, absent=True))
    cr = [(9, 16), (9, 17), (9, 18), (8, 16), (8, 17), (8, 18), (7, 18)]
    ha = [(9, 1), (10, 1), (9, 2), (10, 2), (9, 3), (10, 3), (9, 4), (10, 4)]
    for (uid, name, ab, kind, div), h in zip([x for x in SW_CAV if x[4] == "cr"], cr):
        u.append(unit(uid, "sweden", kind, name, h, div, {"abbrev": ab}))
    for (uid, name, ab, kind, div), h in zip([x for x in SW_CAV if x[4] == "ha"], ha):
        u.append(unit(uid, "sweden", kind, name, h, div, {"abbrev": ab}))
    u.append(unit("charles", "sweden", "leader", "Charles XII (on his litter)", (10, 15)))
    u.append(unit("rehnskiold", "sweden", "leader", "Field Marshal Rehnskiöld", (10, 11)))
    u.append(unit("lewenhaupt", "sweden", "leader", "General Lewenhaupt", (10, 8)))
    u.append(unit("creutz", "sweden", "leader", "Major-General Creutz", (9, 17)))
    head = f'''[scenario]
id = "poltava-1"
title = "Poltava 1709 — 1: And the battle thundered (09:00–13:00)"
ruleset = "poltava"
turns = 12
first_player = "sweden"
notes = """Scenario 1 (spec Part 11): the general engagement, turns 8-12.
Sources and reasoning: the rulebook has no map and no counter values. The map (150 m a hex) follows
the usual historical plans of the field: the fortified camp by the Vorskla near Yakovtsy, woods on
both sides of the field, the T of ten redoubts across the gap. Counter values are the spec's 15.3
placeholders, anchored on the rulebook's examples (CS 3 with 2 stars vs CS 4, Fire 5, MA 4); the
orders of battle follow the usual accounts (Golitsyn/Repnin/Allart infantry, Menshikov, Bem,
Schaumburg, Rentzel with Heinske's dragoons; Lewenhaupt's 18 battalions, Creutz and Hamilton). The Redoubt Line is closed
(S1 [L335]); redoubt markers are not used. Russian infantry stands in ordre de bataille in front of
the retrenchment, the artillery in the camp's battery hexes, the Camp force inside. The first order
is 'setup': one die each for Menshikov (Russian) and Lewenhaupt, Creutz and Hamilton (Swedish), the
owners then flip that many full-strength counters of the division (T14, A36). Eight Swedish
battalions were cut off with Roos: they start in Lewenhaupt's rout box (S1 [L353]). Rentzel is
absent. Map, counter values and set-up are designed data: see engine/rulesets/poltava/NOTES.md."""

'''
    tail = '''
''' + sides_block("west", "east") + '''''' + divisions_block({"gn", "rp", "al", "mn", "bm", "sb", "lg", "le", "cr", "ha"}) + '''
[victory]
russia_divisions = ["gn", "rp", "al", "mn", "bm", "sb", "lg"]
sweden_divisions = ["le", "cr", "ha"]
text = "Sweden wins by routing the Russian army (R10.2) by the end of turn 12; otherwise Russia wins."

[rules]
scenario = 1
first_turn = 8
redoubt_line_row = 20
setup_loss_divisions = ["mn", "le", "cr", "ha"]
objective_sweden = "1810"

'''
    return head + map_block(LABELS) + tail + "\n".join(u)


def _artillery():
    out = []
    for i, h in enumerate(BATTERIES, 1):
        out.append(unit(f"ru-art{i}", "russia", "art", f"Russian field artillery {i}", h))
    return out


def _cossacks(spots=((19, 1), (20, 1), (20, 2), (21, 2), (25, 1), (25, 2), (26, 1), (26, 2))):
    return [unit(f"cossack{i}", "russia", "cossack", f"Skoropadsky Cossacks {i}", h)
            for i, h in enumerate(spots, 1)]


def scenario2():
    u = []
    camp_hexes = [(c, r) for r in range(3, 15) for c in range(20, 30) if camp(c, r) and terrain(c, r) == "C"]
    assert len({camp_hexes[i * 3 % len(camp_hexes)] for i in range(len(RU_INF))}) == len(RU_INF)
    idx = 0
    for i, (uid, name, ab, kind, div) in enumerate(RU_INF):
        st = {"abbrev": ab}
        if div in ("gn", "rp", "al"):
            st["odb"] = i + 1
        u.append(unit(uid, "russia", kind, name, camp_hexes[idx * 3 % len(camp_hexes)], div, st))
        idx += 1
    cav_spots = {"mn": [(9, 18), (11, 18), (13, 18), (15, 18), (17, 18), (12, 17), (14, 17)],
                 "bm": [(13, 1), (14, 1), (15, 1), (16, 1), (17, 1), (18, 1)],
                 "sb": [(14, 2), (15, 2), (16, 2), (17, 2), (18, 2), (19, 2)],
                 "rc": [(19, 14), (20, 14), (19, 15), (20, 15)]}
    for div, spots_ in cav_spots.items():
        for (uid, name, ab, kind, d), h in zip([x for x in RU_CAV if x[4] == div], spots_):
            u.append(unit(uid, "russia", kind, name, h, d, {"abbrev": ab}))
    u += _artillery() + _cossacks()
    for i, h in enumerate(TRANSVERSE + FORWARD, 1):
        kind = "redoubt-u" if h in UNFINISHED else "redoubt"
        nm = f"Redoubt {i}" + (" (unfinished)" if h in UNFINISHED else "")
        u.append(unit(f"redoubt{i}", "russia", kind, nm, h))
    u.append(unit("peter", "russia", "leader", "Peter I", camp_hexes[0]))
    u.append(unit("sheremetev", "russia", "leader", "Field Marshal Sheremetev", camp_hexes[3]))
    u.append(unit("menshikov", "russia", "leader", "Prince Menshikov", (13, 18)))
    u.append(unit("repnin", "russia", "leader", "Prince Repnin", camp_hexes[6]))
    u.append(unit("rentzel", "russia", "leader", "Lieutenant-General Rentzel", (19, 14)))
    cols = {(11, 40): SW_INF[0:5], (13, 40): SW_INF[5:10], (15, 40): SW_INF[10:14], (17, 40): SW_INF[14:18]}
    for entry, bns in cols.items():
        for uid, name, ab, kind in bns:
            odb = [x[0] for x in SW_INF].index(uid) + 1
            u.append(unit(uid, "sweden", kind, name, None, "le", {"abbrev": ab, "odb": odb}, entry=entry))
    for (uid, name, ab, kind, div) in SW_CAV:
        u.append(unit(uid, "sweden", kind, name, None, div, {"abbrev": ab}, entry=(19, 40) if div == "cr" else (8, 40)))
    u.append(unit("charles", "sweden", "leader", "Charles XII (on his litter)", None, entry=(13, 40)))
    u.append(unit("rehnskiold", "sweden", "leader", "Field Marshal Rehnskiöld", None, entry=(11, 40)))
    u.append(unit("lewenhaupt", "sweden", "leader", "General Lewenhaupt", None, entry=(15, 40)))
    u.append(unit("creutz", "sweden", "leader", "Major-General Creutz", None, entry=(19, 40)))
    head = '''[scenario]
id = "poltava-2"
title = "Poltava 1709 — 2: Swede, Russian, stabbing, hacking, slashing (02:00–13:00)"
ruleset = "poltava"
turns = 12
first_player = "sweden"
notes = """Scenario 2 (spec Part 12): the whole battle, turns 1-12.
Sources and reasoning as in scenario 1 (designed map and counters, see NOTES.md); the entry hexes
are where the road from Poltava and the fields beside it reach the south edge, the Swedish columns
ordered as historically (4 infantry columns, cavalry wings on either flank). The Swedes march in by columns
(4 infantry columns, 2 cavalry wings) during turn 1; the Russians wait in the camp, only Menshikov
and Rentzel may move before turn 5. Ten redoubts (six across the gap, four forward; the two most
forward unfinished) fire and must be stormed or passed (S2-2). Ordre de bataille (S2-1), the Roos
column (S2-4), Rentzel's exchange from turn 6 (S2-5) and the draw rule apply. Designed data:
see engine/rulesets/poltava/NOTES.md."""

'''
    tail = '''
''' + sides_block("south", "north") + '''''' + divisions_block({d[0] for d in DIVISIONS}) + '''
[victory]
russia_divisions = ["gn", "rp", "al", "mn", "bm", "sb", "lg"]
sweden_divisions = ["le", "cr", "ha"]
text = "Sweden wins by routing the Russian army by the end of turn 12; Russia wins otherwise, or by routing the Swedish army; the Swedish army cannot rout while the Roos column stands: draw."

[rules]
scenario = 2
first_turn = 1
redoubt_line_row = 20
objective_sweden = "1810"
# computer player only: where each army draws up its ordre de bataille (anchor, hex direction:
# 2 = north, 5 = south) and which Russian division goes to the Camp (S2-1.6)
# S2-1.2 "from the right flank to the left": hex directions (0 SE, 1 NE, 2 N, 3 NW, 4 SW, 5 S) in
# which OdB number n+1 may stand next to number n: Swedes facing east or north, Russians west or south
odb_directions_sweden = [1, 2, 3, 4]
odb_directions_russia = [4, 5, 0, 1]
ai_odb_sweden = ["0819", 2]
ai_odb_russia = ["1703", 5]
ai_detach_russia = ["al"]

'''
    return head + map_block(LABELS) + tail + "\n".join(u)


if __name__ == "__main__":
    root = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    (root / "scenarios" / "poltava-1.toml").write_text(scenario1(), encoding="utf-8")
    (root / "scenarios" / "poltava-2.toml").write_text(scenario2(), encoding="utf-8")
