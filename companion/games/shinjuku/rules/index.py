"""Lookups derived once from Shinjuku's canonical data (generator.canon.shinjuku.Shinjuku).

Nothing here is a game fact of its own: every number and name comes from `data`; this module only
reshapes it for fast access (station -> ward, station pair -> connection id, token kinds, ...).
`ShinjukuRules(data)` builds its one Index when it is bound to the data; every rules function
takes that Index first.
"""
from __future__ import annotations

from functools import cached_property

#: Suffix of a customer token marked "2" (counts as two customers): "books-2". Same id as the
#: generator's component ids (`generator.canon.shinjuku.Shinjuku.components`).
DOUBLE = "-2"


class Index:
    """Read-only views of `data` keyed the way the rules need them."""

    def __init__(self, data) -> None:
        self.data = data
        r = data.rules
        self.hand_size: int = r.hand_size
        self.income_hand: int = r.income_hand
        self.seed_wards: int = r.seed_wards
        self.seed_customers: int = r.seed_customers_per_ward
        self.slots: int = len(r.queue_slots)
        self.queue_start: int = r.queue_start_customers
        self.actions_per_turn: int = r.actions_per_turn
        self.cards_as_wild: int = r.cards_as_wild
        self.min_players, self.max_players = data.players

        self.ward_ids: list[str] = [w.id for w in data.wards]
        self.ward_pos: dict[str, int] = {w: i for i, w in enumerate(self.ward_ids)}
        self.ward_name: dict[str, str] = {w.id: w.name for w in data.wards}
        self.neighbours: dict[str, list[str]] = {w.id: list(w.neighbours) for w in data.wards}
        self.card_counts: dict[str, int] = {w.id: w.cards for w in data.wards}

        self.station_ids: list[str] = [s.id for s in data.stations]
        self.station_name: dict[str, str] = {s.id: s.name for s in data.stations}
        self.station_ward: dict[str, str] = {s.id: s.ward for s in data.stations}
        self.sakura: frozenset[str] = frozenset(s.id for s in data.stations if s.sakura)
        self.stations_in: dict[str, list[str]] = {
            w: [s.id for s in data.stations_in[w]] for w in self.ward_ids}

        self.connection_ids: list[str] = [c.id for c in data.connections]
        self.conn_ends: dict[str, tuple[str, str]] = {c.id: tuple(sorted(c.stations))
                                                      for c in data.connections}
        self.conn_by_pair: dict[frozenset, str] = {frozenset(c.stations): c.id
                                                   for c in data.connections}
        self.prebuilt: list[str] = [c.id for c in data.connections if c.prebuilt]
        adjacency: dict[str, list[tuple[str, str]]] = {s: [] for s in self.station_ids}
        for c in data.connections:
            a, b = c.stations
            adjacency[a].append((b, c.id))
            adjacency[b].append((a, c.id))
        self.adjacency = {s: sorted(v) for s, v in adjacency.items()}

        self.types: list[str] = [t.id for t in data.customers.type]
        self.type_name: dict[str, str] = {t.id: t.name for t in data.customers.type}
        self.type_pos: dict[str, int] = {t: i for i, t in enumerate(self.types)}
        #: token id -> (goods type, customers it counts as)
        self.token: dict[str, tuple[str, int]] = {}
        #: token id -> how many such tokens the bag holds at the start
        self.token_counts: dict[str, int] = {}
        for t in data.customers.type:
            self.token[t.id] = (t.id, 1)
            self.token_counts[t.id] = t.single
            self.token[t.id + DOUBLE] = (t.id, 2)
            self.token_counts[t.id + DOUBLE] = t.double
        self.total_customers: int = data.customers.total

        self.goods: list[str] = list(data.pieces.stores_by_type)
        self.stores_by_type: dict[str, int] = dict(data.pieces.stores_by_type)
        self.department_stores: int = data.pieces.department_stores
        self.track: int = data.pieces.track
        self.colours: list[str] = [c.id for c in data.pieces.colour]
        self.bonus_values: list[int] = list(data.upgrade_bonus.values)
        self.set_points: dict[int, int] = {int(k): v for k, v in data.scoring.set_points.items()}
        # the sort keys of every known card and token, computed once (sort_cards, sort_tokens)
        self._card_keys = {w: self.card_key(w) for w in self.ward_ids}
        self._token_keys = {t: self.token_key(t) for t in self.token}
        self._sorted_bags: dict[tuple, tuple] = {}   # sorted_bag's answers, by the bag's content
        if len(self.types) > self.slots:
            # The queue rule gives every type its own card; with fewer cards than types a drawn
            # customer could find no card, which the rules never provide for.
            raise ValueError(f"the customer queue has {self.slots} spaces for {len(self.types)} "
                             f"customer types; it needs one space per type")

    # ---- ordering helpers (state lists are kept sorted so equal states compare equal) ----

    def card_key(self, ward: str):
        return self.ward_pos.get(ward, len(self.ward_pos)), ward

    def token_key(self, token: str):
        goods, value = self.token.get(token, ("", 0))
        return self.type_pos.get(goods, len(self.type_pos)), value, token

    def sort_cards(self, cards) -> list[str]:
        try:
            return sorted(cards, key=self._card_keys.__getitem__)
        except KeyError:                 # (a card the data does not know: its key is worked out)
            return sorted(cards, key=self.card_key)

    def sort_tokens(self, tokens) -> list[str]:
        try:
            return sorted(tokens, key=self._token_keys.__getitem__)
        except KeyError:
            return sorted(tokens, key=self.token_key)

    def sorted_bag(self, bag) -> list[str]:
        """sort_tokens(bag) as a new list, remembered by the bag's content (public_view sorts the
        bag for every answer; the bag changes once a turn): the sorted tuples of the last bags of
        every table (at most 256 bags, about 300 kB; then it starts again), kept only for bags of
        known tokens (strings, so an equal tuple is the same bag)."""
        try:
            key = tuple(bag)
            got = self._sorted_bags.get(key)
        except TypeError:                # (not a list of strings: as sort_tokens answers)
            return self.sort_tokens(bag)
        if got is None:
            try:
                got = tuple(sorted(key, key=self._token_keys.__getitem__))
            except KeyError:             # (an unknown token: not remembered)
                return self.sort_tokens(bag)
            if len(self._sorted_bags) >= 256:
                self._sorted_bags.clear()
            self._sorted_bags[key] = got
        return list(got)

    # ---- names for sentences ----

    def wname(self, ward: str) -> str:
        return self.ward_name.get(ward, str(ward))

    def sname(self, station: str) -> str:
        return self.station_name.get(station, str(station))

    def tname(self, token: str) -> str:
        goods, value = self.token.get(token, (token, 1))
        name = self.type_name.get(goods, goods)
        return f"{name} “2”" if value == 2 else name

    @cached_property
    def full_deck(self) -> list[str]:
        return [w for w in self.ward_ids for _ in range(self.card_counts[w])]

    @cached_property
    def full_bag(self) -> list[str]:
        return [tok for tok, n in self.token_counts.items() for _ in range(n)]


def with_article(word: str, capital: bool = False) -> str:
    """`word` with its indefinite article, for sentences: "a Food store", "an Ota card"."""
    article = "an" if str(word)[:1].lower() in "aeiou" else "a"
    return f"{article.capitalize() if capital else article} {word}"

