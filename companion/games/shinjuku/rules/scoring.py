"""Final set scoring and the result of a finished game.

A player's customers (a "2" customer counts as two) and upgrade bonus tokens (each a wild customer)
are partitioned into sets of different types; a set of 4 / 3 / 2 / 1 scores 10 / 6 / 3 / 1 (the
points come from the data: `data.scoring.set_points`). A wild stands for a type missing from its
set, so a set may hold several wilds, or only wilds, but never more items than there are types.

`best_sets` is exact for any point table, and fast for large counts:

* Only the sizes of the sets matter for the score. Sets of sizes s_1..s_m can hold the customers
  (counts c_t, each type at most once per set) with the wilds filling every other place iff
  sum(s_j) = sum(c_t) + wild and, for k = 1..K-1 (K = number of types), the k largest counts add
  up to at most sum_j min(s_j, k) (max-flow / min-cut on types -> sets; the wilds take any place).
* So we search the numbers m_K .. m_3 of sets of each size; then m_1 = R - 2*m_2 and the score is
  linear in m_2 while only the k = 1 condition depends on it, so the best m_2 is an end of its
  interval. For counts up to 50 each that is a few thousand steps.
* The sets are then built by placing each type (most numerous first) into the sets with the most
  free places (the Gale-Ryser construction), and filling what is left with wilds.

The result (contract.result): the rules text has no tie-break ("victory goes to the player that
can create the most sets"; the points decide), so equal top scores are a shared victory.
"""
from __future__ import annotations

from companion.games import contract

WILD = "wild"

def best_sets(customers: dict, wild: int, points: dict, types: list[str]) -> tuple[int, list[list[str]]]:
    """The highest-scoring partition of `customers` ({type: count}) and `wild` tokens into sets of
    different types. Returns (points, sets); each set lists its types in `types` order, then
    "wild" for each wild token; sets are listed largest first. `points`: {set size: points}
    (ShinjukuRules.best_sets passes the data's)."""
    points = {int(k): v for k, v in points.items()}
    K = len(types)
    for t, n in customers.items():
        if t not in types:
            raise ValueError(f"unknown customer type {t!r}")
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError(f"count of {t!r} must be a whole number >= 0")
    if isinstance(wild, bool) or not isinstance(wild, int) or wild < 0:
        raise ValueError("wild must be a whole number >= 0")
    if any(s not in points for s in range(1, K + 1)):
        raise ValueError(f"points are needed for sets of 1 to {K}")

    counts = {t: customers.get(t, 0) for t in types}
    total = sum(counts.values()) + wild
    if total == 0:
        return 0, []
    top = sorted(counts.values(), reverse=True)
    T = [sum(top[:k]) for k in range(K + 1)]          # T[k]: the k largest counts added up
    f = points

    best = None   # (score, m) with m[s] = number of sets of size s
    if K == 1:
        best = (total * f[1], {1: total})
    else:
        sizes_desc = list(range(K, 2, -1))            # sizes searched explicitly: K .. 3
        m = {s: 0 for s in range(1, K + 1)}
        ks = range(2, K)
        slope = f[2] - 2 * f[1]

        # g[k-2] = sum over chosen sizes s >= 3 of m_s * min(s, k), for k = 2 .. K-1
        def search(i: int, remaining: int, g: tuple, base: int, part: int) -> None:
            nonlocal best
            if i == len(sizes_desc):
                R = remaining
                # k >= 2 conditions do not depend on m_2 (m_1 + 2 m_2 = R).
                for k in ks:
                    if g[k - 2] + R < T[k]:
                        return
                hi = min(R // 2, R + base - T[1])             # k = 1: R - m_2 + base >= T[1]
                if hi < 0:
                    return
                m2 = hi if slope > 0 else 0
                score = part + m2 * f[2] + (R - 2 * m2) * f[1]
                if best is not None and score < best[0]:
                    return
                cand = (score, {**m, 2: m2, 1: R - 2 * m2})
                if best is None or _better(cand, best, K):
                    best = cand
                return
            s = sizes_desc[i]
            step = tuple(min(s, k) for k in ks)
            for n in range(remaining // s, -1, -1):
                m[s] = n
                search(i + 1, remaining - n * s, tuple(a + n * b for a, b in zip(g, step)),
                       base + n, part + n * f[s])
            m[s] = 0

        search(0, total, tuple(0 for _ in ks), 0, 0)
    assert best is not None   # all singles is always possible
    score, m = best
    return score, _build(counts, wild, m, types)


def _better(a, b, K: int) -> bool:
    """Higher score wins; ties go to larger sets first (a stable, readable answer)."""
    if a[0] != b[0]:
        return a[0] > b[0]
    return [a[1][s] for s in range(K, 0, -1)] > [b[1][s] for s in range(K, 0, -1)]


def _build(counts: dict, wild: int, m: dict, types: list[str]) -> list[list[str]]:
    sizes = [s for s in sorted(m, reverse=True) for _ in range(m[s])]
    free = list(sizes)
    members: list[list[str]] = [[] for _ in sizes]
    for t in sorted(types, key=lambda t: -counts[t]):
        order = sorted(range(len(sizes)), key=lambda j: -free[j])
        chosen = order[:counts[t]]
        if len(chosen) < counts[t] or any(free[j] <= 0 for j in chosen):
            raise AssertionError("set construction failed")  # cannot happen when m is feasible
        for j in chosen:
            members[j].append(t)
            free[j] -= 1
    if sum(free) != wild:
        raise AssertionError("set construction failed")
    pos = {t: i for i, t in enumerate(types)}
    sets = [sorted(ms, key=pos.__getitem__) + [WILD] * free[j] for j, ms in enumerate(members)]
    return sorted(sets, key=lambda s: (-len(s), s.count(WILD), [pos.get(x, len(pos)) for x in s]))


def set_points(sets: list[list[str]], points: dict) -> int:
    return sum(points[len(s)] for s in sets)


# ---------------------------------------------------------------------------------------------

def player_score(ix, player: dict) -> dict:
    counts = {t: 0 for t in ix.types}
    tokens = {tok: 0 for tok in ix.token}
    for tok in player["customers"]:
        goods, value = ix.token[tok]
        counts[goods] += value
        tokens[tok] += 1
    wild = len(player["bonus_tokens"])
    points, sets = best_sets(counts, wild, ix.set_points, ix.types)
    by_size = {}
    for size in sorted(ix.set_points, reverse=True):
        n = sum(1 for s in sets if len(s) == size)
        by_size[str(size)] = {"sets": n, "points_each": ix.set_points[size],
                              "points": n * ix.set_points[size]}
    return {"customers": counts, "tokens": tokens, "wild": wild, "sets": sets,
            "by_size": by_size, "points": points}


def score(ix, state: dict) -> dict:
    """Everyone's set scoring now (during the game too): {"final", "players": [player_score + player,
    name, colour], "leaders": [player...]} (every player with the top points)."""
    rows = []
    for i, player in enumerate(state["players"]):
        row = {"player": i, "name": player["name"], "colour": player["colour"]}
        row.update(player_score(ix, player))
        rows.append(row)
    top = max(r["points"] for r in rows)
    return {"final": state["phase"] == "over", "players": rows,
            "leaders": [r["player"] for r in rows if r["points"] == top]}


def _size_label(size: int, n: int, each: int, wilds: int) -> str:
    what = "Single customers" if size == 1 else f"Sets of {size} different customers"
    extra = f" ({wilds} bonus token{'s' if wilds != 1 else ''} as wild)" if wilds else ""
    return f"{what}: {n} × {each}{extra}"


def result(ix, state: dict) -> dict | None:
    """contract.result once the game is over: unit "points"; each breakdown lists the sets by size
    with their points (and the bonus tokens each size holds as wild), then the upgrade bonus
    tokens used as wild (0 points of their own: they score inside the sets), so it adds up to the
    score. Winners: the top score; the rules have no tie-break, so a tie is a shared victory."""
    if state.get("phase") != "over":
        return None
    rows = []
    for i, player in enumerate(state["players"]):
        ps = player_score(ix, player)
        breakdown = []
        for size in sorted(ix.set_points, reverse=True):
            of_size = [s for s in ps["sets"] if len(s) == size]
            wilds = sum(s.count(WILD) for s in of_size)
            each = ix.set_points[size]
            breakdown.append((_size_label(size, len(of_size), each, wilds), len(of_size) * each))
        n = ps["wild"]
        breakdown.append((f"Upgrade bonus tokens used as wild customers: {n} (scored in the sets above)", 0))
        rows.append(contract.score_row(i, player["name"], breakdown, colour=player["colour"],
                                       customers=ps["customers"], wild=n, sets=ps["sets"]))
    return contract.result(contract.leaders(rows), "points", rows)


def limits(ix) -> tuple[dict[str, int], int]:
    """The most customers of each type one player can hold (a "2" token counting twice, every token
    of the box) and the most upgrade bonus tokens (wilds): what the calculator accepts."""
    most = {t: 0 for t in ix.types}
    for token, n in ix.token_counts.items():
        goods, value = ix.token[token]
        most[goods] += n * value
    return most, len(ix.bonus_values)


def calculator(ix, body) -> tuple[list[str], dict | None]:
    """`POST /api/shinjuku/score` (API.md): (reasons, {"points", "sets"}). Refused: anything but
    {"customers": {type: n}, "wild": n}, and numbers the game cannot reach (negative, more than the
    box holds)."""
    if not isinstance(body, dict):
        return ["Send {\"customers\": {\"food\": n, …}, \"wild\": n}."], None
    extra = sorted((k for k in body if k not in ("customers", "wild")), key=repr)
    if extra:
        return [f"Unknown field {extra[0]!r} (send \"customers\" and \"wild\")."], None
    customers = body.get("customers", {})
    wild = body.get("wild", 0)
    if not isinstance(customers, dict):
        return ["\"customers\" maps each type to a count, e.g. {\"food\": 3, \"books\": 1}."], None
    most, most_wild = limits(ix)
    reasons = []
    for t, n in customers.items():
        if t not in most:
            reasons.append(f"{t!r} is not a customer type (one of: {', '.join(ix.types)}).")
        elif isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= most[t]:
            reasons.append(f"The count of {t} must be a whole number from 0 to {most[t]} (the game has "
                           f"{most[t]} {ix.type_name[t]} customers, a “2” token counting as two).")
    if isinstance(wild, bool) or not isinstance(wild, int) or not 0 <= wild <= most_wild:
        reasons.append(f"\"wild\" (upgrade bonus tokens) must be a whole number from 0 to {most_wild} "
                       f"(the game has {most_wild}).")
    if reasons:
        return reasons, None
    points, sets = best_sets(customers, wild, ix.set_points, ix.types)
    return [], {"points": points, "sets": sets}
