"""Suggest extra Voronoi seeds ("ward anchors") so the map's derived ward areas touch exactly the
neighbours listed in assets/shinjuku/wards.toml (the Matsuri moves between neighbouring wards).

Station positions alone give areas whose adjacency differs from the data in a dozen places; a few
anchor points owned by a ward reshape the areas. This is a random local search; paste its output
into layouts/shinjuku.toml ([[board.anchor]]) and look at the board.
Run: .venv/bin/python tools/fit_ward_anchors.py [seed] [iterations]
"""
from __future__ import annotations

import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.canon import load  # noqa: E402
from generator.kits.shinjuku.map import MapModel  # noqa: E402
from generator.kits.shinjuku.layout import load_layout  # noqa: E402


def main() -> None:
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    iterations = int(sys.argv[2]) if len(sys.argv) > 2 else 1500
    rng = random.Random(seed)
    data = load("shinjuku")
    layout = load_layout()
    wanted = {tuple(sorted((w.id, n))) for w in data.wards for n in w.neighbours}

    def cost(anchors):
        model = MapModel(data, layout.board, layout.tokens.track, anchors=anchors)
        got = model.ward_adjacency()
        bad = len(got ^ wanted) * 10 + model.disconnected_wards() * 10
        return bad + len(anchors) + model.squeezed_stations() * 10, got

    anchors = [(a.ward, tuple(a.map)) for a in layout.board.anchor]
    best, got = cost(anchors)
    for step in range(iterations):
        trial = list(anchors)
        move = rng.random()
        missing = sorted(wanted - got)
        if (move < 0.5 and missing) or not trial:
            a, b = rng.choice(missing) if missing else rng.sample([w.id for w in data.wards], 2)
            if rng.random() < 0.5:
                a, b = b, a
            sa = min(data.stations_in[a], key=lambda s: min(math.dist(s.map, t.map) for t in data.stations_in[b]))
            sb = min(data.stations_in[b], key=lambda t: math.dist(sa.map, t.map))
            t = rng.uniform(0.3, 0.6)
            p = (sa.map[0] + (sb.map[0] - sa.map[0]) * t + rng.gauss(0, 40),
                 sa.map[1] + (sb.map[1] - sa.map[1]) * t + rng.gauss(0, 40))
            trial.append((a, p))
        elif move < 0.7:
            trial.pop(rng.randrange(len(trial)))
        else:
            i = rng.randrange(len(trial))
            w, (x, y) = trial[i]
            trial[i] = (w, (x + rng.gauss(0, 30), y + rng.gauss(0, 30)))
        trial = [(w, (min(max(x, 5), 1795), min(max(y, 5), 1615))) for w, (x, y) in trial]
        c, g = cost(trial)
        if c <= best:
            anchors, best, got = trial, c, g
        if step % 100 == 0:
            print(f"# step {step}: cost {best}, anchors {len(anchors)}, wrong pairs {sorted(got ^ wanted)}",
                  file=sys.stderr)
    print(f"# cost {best}; wrong pairs: {sorted(got ^ wanted)}")
    for w, (x, y) in anchors:
        print(f'[[board.anchor]]\nward = "{w}"\nmap = [{x:.0f}, {y:.0f}]\n')


if __name__ == "__main__":
    main()
