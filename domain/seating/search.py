"""The tabu search every seating runs, over a schedule of sessions; one day is the one-session
case (after Dotu and Van Hentenryck's search for the social golfer problem).

Pure Python, no Django.

Cost
----
One integer: keep-apart pairs together (a weight above everything else), then repeats, each
pair's ``k``-th meeting weighing ``2k - 3`` repeats (a pair meeting ``c`` times costs
``(c - 1)**2``: one pair at a table on all three days, 4, is worse than three pairs meeting
twice, 3, since for a player the same face every day is what spoils a rally; weighing
repeats alone, a search seats one pair of 30 players at tables of 6 together on all six days
to save repeats elsewhere), then club mates
sharing a table in the first session (clubs are given only when there is no history) and what a
caller adds per player and table (:attr:`Problem.unary`: a replanned session's moves from its
plan). A schedule at cost ``repeat_weight * r`` has ``r`` repeats and no pair meeting three
times, so a proven bound on repeats is still a target the search may stop at. A pair's
meetings in the history count once however many they were, so with one session the cost is the
day's: repeat pairs, keep-apart pairs and club mates at a table.

Search
------
A move swaps two players at different tables of one session; only swaps moving a player who has
a cost at their own table are looked at; the best non-tabu swap is made (a tabu one when it
beats the best found), and a player may not go back to the table it left in that session for a
few steps. After a while without progress the search restarts from the best found with a few
random swaps. Pinned players never move. Deltas are O(1): ``conf[s][p][t]`` holds what player
``p`` meeting the players at table ``t`` of session ``s`` costs at the margin, and a move
updates it for the mover's partners in its session and, with several sessions, in the others
for the pairs whose meeting count it changes. How much of the neighbourhood a step looks at is
the caller's :class:`Tuning`.

Everything random comes from the ``random.Random`` given and all iteration is over lists or
sorted sets, and every budget counts work (swap evaluations), so the same start and seed give
the same result on any machine at any load. The wall clock is only a safety net: when it is
what stopped a run, :attr:`TabuSearch.cut_short` says so, and callers tell the organiser.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from domain.seating.field import SeatingField
from domain.seating.pairs import Pair, pair_count

__all__ = ["Problem", "TabuSearch", "Tuning"]


def _pair_cost(c: int, weight: int) -> int:
    """A pair meeting ``c`` times in all: ``(c - 1)**2`` repeats' worth (see the module doc)."""
    r = max(0, c - 1)
    return weight * r * r


@dataclass(frozen=True)
class Problem:
    """A schedule to search, players as numbers ``0 .. n-1`` and tables as ``0 .. k-1``."""

    n: int
    sizes: list[int]
    sessions: int
    met: list[Pair]  # pairs who met in the history
    apart: list[Pair]  # pairs kept apart in every session
    club: list[Pair]  # club mates, kept apart in the first session below any repeat
    club_sizes: list[int]
    movable: list[bool]  # False for pinned players
    unary: list[list[list[int]]] | None = None  # unary[s][p][t]: p at table t of session s
    club_every_session: bool = False  # club mates weigh in every session, not the first alone

    @classmethod
    def of(cls, field: SeatingField, sessions: int) -> Problem:
        """The search problem of ``sessions`` sessions of ``field``."""
        index = field.index
        club: list[Pair] = []
        for group in field.club_groups:
            members = [index[p] for p in group]
            club.extend((a, b) for i, a in enumerate(members) for b in members[i + 1 :])
        return cls(
            n=len(field.ids),
            sizes=field.sizes,
            sessions=sessions,
            met=[(index[a], index[b]) for a, b in field.met],
            apart=[(index[a], index[b]) for a, b in field.apart],
            club=club,
            club_sizes=[len(group) for group in field.club_groups],
            movable=[i not in field.pin_tables for i in range(len(field.ids))],
            club_every_session=field.clubs_every_day,
        )

    @cached_property
    def _slots(self) -> int:
        """Meetings the schedule seats: table-mate pairs over all sessions."""
        return self.sessions * sum(pair_count(s) for s in self.sizes)

    @cached_property
    def repeat_weight(self) -> int:
        """One repeat: above everything below it (club mates, moves) together."""
        return self._slots * (self.sessions + 2) + self.n * self.sessions + 1

    @cached_property
    def apart_weight(self) -> int:
        """One keep-apart pair together: above every repeat the schedule can have (a pair's
        ``(c - 1)**2`` is at most ``sessions * (c - 1)``, and the ``c - 1`` add up to at most
        the meetings seated)."""
        return self.repeat_weight * (self.sessions * self._slots + 1)

    def club_floor(self) -> int:
        """The fewest club mates sharing a table in the sessions that spread clubs (the first,
        or every one): each club spread evenly (clubs are disjoint, so their minima add up)."""
        k = len(self.sizes)
        total = 0
        for c in self.club_sizes:
            q, r = divmod(c, k)
            total += r * pair_count(q + 1) + (k - r) * pair_count(q)
        return total * (self.sessions if self.club_every_session else 1)

    def target(self, repeats: int, club_mates: int = 0) -> int:
        """The cost of a schedule with ``repeats`` repeats and ``club_mates`` club mates at a
        table, nothing else: what a search stops at when these are proven bounds."""
        return self.repeat_weight * repeats + club_mates


@dataclass(frozen=True)
class Tuning:
    """How much of the neighbourhood each step looks at, and how the search moves on."""

    conflicts: int  # players in conflict looked at per step (a random sample of them beyond)
    tables: int | None  # tables tried per player, a random sample (None: every table)
    tenure_lo: int  # a swapped player may not go back for tenure_lo + randrange(tenure_span)
    tenure_span: int
    stall_steps: int  # steps without a new best before a restart from it
    kick: int  # a restart makes 1 + randrange(kick) random swaps

    @classmethod
    def for_day(cls, n: int, k: int, movable: int) -> Tuning:
        """One day, up to 2,000 players: beyond 300 a step samples players and tables."""
        big = n > 300
        return cls(
            conflicts=8 if big else n,
            tables=min(k, 40) if big else None,
            tenure_lo=2,
            tenure_span=max(2, min(10, n // 4)),
            stall_steps=400 if big else max(60, 8 * n),
            kick=max(2, min(movable // 3, 8)),
        )

    @classmethod
    def for_schedule(cls, n: int) -> Tuning:
        """Several sessions (or one replanned), up to a few hundred players: a step tries up to
        4,000 / n players in conflict against everyone at the other tables (about 4,000
        swaps), with a short tenure of 2 to 7 steps (tuned on bench/seating.py's rallies, where
        it reaches the bound in about half the work of 2,000 swaps and 3 to 10 steps)."""
        return cls(
            conflicts=max(4, 4000 // max(n, 1)),
            tables=None,
            tenure_lo=2,
            tenure_span=6,
            stall_steps=max(300, 4 * n),
            kick=4,
        )


class TabuSearch:
    """Swap-based tabu search over the sessions of a :class:`Problem` (see the module doc)."""

    tab: list[list[int]]  # tab[s][p]: the table of player p in session s
    members: list[list[list[int]]]  # members[s][t]: the players at table t of session s
    pos: list[list[int]]  # pos[s][p]: where p is in members[s][tab[s][p]]
    weights: list[list[dict[int, int]]]  # weights[s][p][q]: p meeting q in s at the margin
    conf: list[list[list[int]]]  # conf[s][p][t]: unary + weights of p's partners at table t
    bad: list[set[int]]  # bad[s]: movable players with a cost at their own table in session s
    # meetings[p][q]: how often p and q meet (the history counting once); None with one
    # session, where no meeting count changes a weight
    meetings: list[dict[int, int]] | None
    cost: int
    # the state of one run()
    best: list[list[int]]
    best_cost: int
    tabu: list[list[int]]  # tabu[s][p * k + t]: the step until which p may not go back to t
    step: int
    last_improve_step: int
    last_improve_evals: int
    evals: int
    cut_short: bool  # the clock, not the work budget, stopped a run (the result may differ)

    def __init__(self, problem: Problem, rng: random.Random, tuning: Tuning) -> None:
        self.problem, self.rng, self.tuning = problem, rng, tuning
        n, k, d = problem.n, len(problem.sizes), problem.sessions
        self.n, self.k, self.d = n, k, d
        weight = problem.repeat_weight
        # inc[c]: what one more meeting costs a pair that meets c times elsewhere
        self.inc = [_pair_cost(c + 1, weight) - _pair_cost(c, weight) for c in range(d + 3)]
        self.fixed = self._fixed_weights()
        self.others = [[s2 for s2 in range(d) if s2 != s] for s in range(d)]
        # every table but the player's own, when a step tries them all
        self.other_tables = (
            [[t for t in range(k) if t != own] for own in range(k)] if tuning.tables is None else []
        )
        self.movable = problem.movable
        self.movable_ids = [p for p in range(n) if problem.movable[p]]
        self.meetings = None
        # hist[p]: who p met in the history, for counting meetings (one session's weights hold it)
        self.hist: list[set[int]] = []
        self.weights = []
        if d == 1:
            # one session's weights never change (no other session's meetings count): made once
            self.weights = [self._one_session_weights()]
        else:
            self.hist = [set() for _ in range(n)]
            for a, b in problem.met:
                self.hist[a].add(b)
                self.hist[b].add(a)
        self.evals = 0
        self.cut_short = False

    def _fixed_weights(self) -> list[list[dict[int, int]]]:
        """fixed[s][p][q]: what p and q meeting in session s costs whatever their count."""
        n, prob = self.n, self.problem
        always: list[dict[int, int]] = [{} for _ in range(n)]
        apart_weight = prob.apart_weight
        for a, b in prob.apart:
            always[a][b] = always[b][a] = apart_weight
        first = [dict(row) for row in always] if prob.club and self.d > 1 else always
        for a, b in prob.club:
            first[a][b] = first[a].get(b, 0) + 1
            first[b][a] = first[b].get(a, 0) + 1
        if prob.club_every_session:
            return [first] * self.d
        return [first] + [always] * (self.d - 1)

    def _one_session_weights(self) -> list[dict[int, int]]:
        """weights[0] of one session: a repeat for a pair who met in the history, plus what
        their meeting costs whatever the count."""
        rows: list[dict[int, int]] = [{} for _ in range(self.n)]
        repeat = self.inc[1]
        for a, b in self.problem.met:
            rows[a][b] = rows[b][a] = repeat
        for p, fixed in enumerate(self.fixed[0]):
            row = rows[p]
            for q, w in fixed.items():
                row[q] = row.get(q, 0) + w
        return rows

    # -- state -------------------------------------------------------------

    def load(self, tabs: Sequence[Sequence[int]]) -> None:
        """Set the schedule (``tabs[s][p]``: the table of player ``p`` in session ``s``)."""
        n, k = self.n, self.k
        # Let the last schedule's state go before the new one is built: with many sessions it is
        # the bulk of the search's memory, and holding both would double it.
        self.conf, self.bad, self.meetings = [], [], None
        if self.d > 1:
            self.weights = []
        self.tab = [list(ts) for ts in tabs]
        self.members, self.pos = [], []
        for ts in self.tab:
            members: list[list[int]] = [[] for _ in range(k)]
            pos = [0] * n
            for p, t in enumerate(ts):
                pos[p] = len(members[t])
                members[t].append(p)
            self.members.append(members)
            self.pos.append(pos)
        if self.d > 1:
            self.meetings = self._count_meetings()
            self.weights = [[self._weigh(s, p) for p in range(n)] for s in range(self.d)]
        self.conf = [self._conf(s) for s in range(self.d)]
        self.bad = [
            {p for p in self.movable_ids if conf[p][ts[p]] > 0}
            for conf, ts in zip(self.conf, self.tab, strict=True)
        ]
        self.cost = self.cost_of(self.tab)

    def _count_meetings(self) -> list[dict[int, int]]:
        """meetings[p][q] of the loaded schedule, the history counting once."""
        meetings = [dict.fromkeys(h, 1) for h in self.hist]
        for tables in self.members:
            for table in tables:
                for i, a in enumerate(table):
                    for b in table[i + 1 :]:
                        meetings[a][b] = meetings[b][a] = meetings[a].get(b, 0) + 1
        return meetings

    def _weigh(self, s: int, p: int) -> dict[int, int]:
        """weights[s][p] with several sessions: what p meeting each partner in session s costs,
        after their meetings in the history and the other sessions (nonzero only)."""
        assert self.meetings is not None
        row: dict[int, int] = {}
        ts, inc = self.tab[s], self.inc
        for q, c in self.meetings[p].items():
            w = inc[c - (ts[q] == ts[p])]
            if w:
                row[q] = w
        for q, w in self.fixed[s][p].items():
            row[q] = row.get(q, 0) + w
        return row

    def _conf(self, s: int) -> list[list[int]]:
        """conf[s] of the loaded schedule, from its weights."""
        unary = self.problem.unary
        n, k, ts = self.n, self.k, self.tab[s]
        conf = [list(unary[s][p]) for p in range(n)] if unary else [[0] * k for _ in range(n)]
        for p, row in enumerate(self.weights[s]):
            t = ts[p]
            for q, w in row.items():
                conf[q][t] += w
        return conf

    def cost_of(self, tabs: Sequence[Sequence[int]]) -> int:
        """The cost of a schedule, from scratch: each session's meetings priced after the
        history and the sessions before it (the prices add up to each pair's cost)."""
        unary = self.problem.unary
        total = 0
        if unary:
            total += sum(unary[s][p][t] for s, ts in enumerate(tabs) for p, t in enumerate(ts))
        if self.d == 1:  # nothing comes before the one session: a pair costs its weight
            weights, ts = self.weights[0], tabs[0]
            return total + sum(
                w
                for a, row in enumerate(weights)
                for b, w in row.items()
                if b > a and ts[a] == ts[b]
            )
        earlier: dict[int, int] = {}  # meetings in the sessions before, by pair a * n + b
        for s, ts in enumerate(tabs):
            tables: list[list[int]] = [[] for _ in range(self.k)]
            for p, t in enumerate(ts):
                tables[t].append(p)
            for table in tables:
                total += self._table_cost(s, table, earlier)
        return total

    def _table_cost(self, s: int, table: list[int], earlier: dict[int, int]) -> int:
        """What the meetings at one table of session ``s`` cost after ``earlier`` (which gains
        them)."""
        n, inc, hist, fixed = self.n, self.inc, self.hist, self.fixed[s]
        total = 0
        for i, a in enumerate(table):
            for b in table[i + 1 :]:
                c = earlier.get(a * n + b, 0)
                earlier[a * n + b] = c + 1
                total += inc[c + (b in hist[a])] + fixed[a].get(b, 0)
        return total

    def _mark(self, s: int, p: int) -> None:
        """Whether ``p`` is in conflict in session ``s``, after their costs changed."""
        if self.movable[p] and self.conf[s][p][self.tab[s][p]] > 0:
            self.bad[s].add(p)
        else:
            self.bad[s].discard(p)

    def delta(self, s: int, a: int, b: int) -> int:
        """What swapping ``a`` and ``b`` (at different tables of session ``s``) changes."""
        ts, cs = self.tab[s], self.conf[s]
        A, B = ts[a], ts[b]
        wab = self.weights[s][a].get(b, 0)
        return cs[a][B] - cs[a][A] + cs[b][A] - cs[b][B] - 2 * wab

    def swap(self, s: int, a: int, b: int) -> None:
        """Swap ``a`` and ``b`` (at different tables of session ``s``)."""
        change = self.delta(s, a, b)
        A, B = self.tab[s][a], self.tab[s][b]
        self._move(s, a, B)
        self._move(s, b, A)
        self._mark(s, a)
        self._mark(s, b)
        self.cost += change

    def _move(self, s: int, x: int, new: int) -> None:
        """Move ``x`` to table ``new`` of session ``s`` (a swap is two moves)."""
        ts, cs, bad, movable = self.tab[s], self.conf[s], self.bad[s], self.movable
        old = ts[x]
        for z, w in self.weights[s][x].items():
            row = cs[z]
            row[old] -= w
            row[new] += w
            if movable[z]:
                if row[ts[z]] > 0:
                    bad.add(z)
                else:
                    bad.discard(z)
        ts[x] = new
        members, pos = self.members[s], self.pos[s]
        left = members[old]
        last = left.pop()
        if last != x:
            left[pos[x]] = last
            pos[last] = pos[x]
        pos[x] = len(members[new])
        if self.meetings is not None:
            for z in left:
                self._meet(s, x, z, -1)
            for z in members[new]:
                self._meet(s, x, z, 1)
        members[new].append(x)

    def _meet(self, s: int, x: int, z: int, change: int) -> None:
        """``x`` and ``z`` meet ``change`` (1 or -1) more times in session ``s``: their weights,
        and so the conf of both, change in the other sessions."""
        assert self.meetings is not None
        mx, mz = self.meetings[x], self.meetings[z]
        c = mx.get(z, 0) + change
        if c:
            mx[z] = mz[x] = c
        else:
            del mx[z], mz[x]
        for s2 in self.others[s]:
            ts2, weights = self.tab[s2], self.weights[s2]
            tx, tz = ts2[x], ts2[z]
            was = weights[x].get(z, 0)
            diff = self.inc[c - (tx == tz)] + self.fixed[s2][x].get(z, 0) - was
            if not diff:
                continue
            if was + diff:
                weights[x][z] = weights[z][x] = was + diff
            else:
                del weights[x][z], weights[z][x]
            conf = self.conf[s2]
            conf[x][tz] += diff
            conf[z][tx] += diff
            if tx == tz:
                self._mark(s2, x)
                self._mark(s2, z)

    # -- search ------------------------------------------------------------

    def run(
        self, target: int, max_evals: int, deadline: float, stall_evals: int | None = None
    ) -> list[list[int]]:
        """Tabu search from the loaded schedule; returns the best found (its cost:
        :attr:`best_cost`).

        It stops at ``target``, when no movable player has a cost at their table (what is left
        is between pinned players, so nothing beats it), after ``max_evals`` swap evaluations,
        after ``stall_evals`` of them without a new best, or at ``deadline``.
        """
        self.best_cost, self.best = self.cost, [list(ts) for ts in self.tab]
        if self.best_cost <= target or len(self.movable_ids) < 2:
            return self.best
        self.tabu = self._fresh_tabu()
        self.step = self.last_improve_step = self.last_improve_evals = self.evals = 0
        stall = self.tuning.stall_steps
        stall_evals = max_evals if stall_evals is None else stall_evals
        while not self._out_of_budget(deadline, max_evals, stall_evals):
            self.step += 1
            in_conflict = self._in_conflict()
            if not in_conflict:
                break
            if self.step - self.last_improve_step > stall:
                self._perturb()
                continue
            move = self._best_swap(self._sample(in_conflict))
            if move is None:
                self.last_improve_step = -stall  # nothing to swap: restart at the next step
                continue
            self._make_tabu_swap(*move)
            if self._keep_if_best() and self.best_cost <= target:
                break
        return self.best

    def _fresh_tabu(self) -> list[list[int]]:
        return [[0] * (self.n * self.k) for _ in range(self.d)]

    def _out_of_budget(self, deadline: float, max_evals: int, stall_evals: int) -> bool:
        if self.evals >= max_evals or self.evals - self.last_improve_evals >= stall_evals:
            return True
        # the clock is only a safety net (see the module docstring): every 16th step will do
        if (self.step & 15) == 0 and time.perf_counter() > deadline:
            self.cut_short = True
        return self.cut_short

    def _in_conflict(self) -> list[int]:
        """``s * n + p`` for every movable player ``p`` with a cost at their table of session
        ``s``, in that order."""
        n = self.n
        return [s * n + p for s, bad in enumerate(self.bad) for p in sorted(bad)]

    def _sample(self, in_conflict: list[int]) -> list[int]:
        if len(in_conflict) > self.tuning.conflicts:
            return sorted(self.rng.sample(in_conflict, self.tuning.conflicts))
        return in_conflict

    def _sampled_tables(self, own: int, count: int) -> list[int]:
        """The tables, ``count`` drawn at random, a player at table ``own`` is tried at."""
        return [t for t in self.rng.sample(range(self.k), count) if t != own]

    def _best_swap(self, in_conflict: list[int]) -> tuple[int, int, int] | None:
        """The swap ``(session, a, b)`` of a player in conflict with a movable player at another
        table that lowers the cost most (ties broken at random); a tabu swap only when it beats
        the best schedule found."""
        n, k, rng, movable, step = self.n, self.k, self.rng, self.movable, self.step
        sample, other_tables = self.tuning.tables, self.other_tables
        gap = self.best_cost - self.cost  # a change below this beats the best found
        best_d: float = math.inf
        move: tuple[int, int, int] | None = None
        ties = looked = 0
        session = -1
        for key in in_conflict:
            s, a = divmod(key, n)
            if s != session:  # the players in conflict come session by session
                session = s
                ts, cs, tabu, members, weights = (
                    self.tab[s],
                    self.conf[s],
                    self.tabu[s],
                    self.members[s],
                    self.weights[s],
                )
            A, row, wa = ts[a], cs[a], weights[a]
            tables = other_tables[A] if sample is None else self._sampled_tables(A, sample)
            for B in tables:
                base = row[B] - row[A]
                a_tabu = tabu[a * k + B] > step
                looked += len(members[B])
                for b in members[B]:
                    if not movable[b]:
                        continue
                    rb = cs[b]
                    d = base + rb[A] - rb[B] - 2 * wa.get(b, 0)
                    if d > best_d or ((a_tabu or tabu[b * k + A] > step) and d >= gap):
                        continue
                    ties = 1 if d < best_d else ties + 1
                    if ties == 1 or rng.randrange(ties) == 0:
                        best_d, move = d, (s, a, b)
        self.evals += looked + 1
        return move

    def _make_tabu_swap(self, s: int, a: int, b: int) -> None:
        """Swap ``a`` and ``b`` and forbid each from going back to its table for a while."""
        A, B = self.tab[s][a], self.tab[s][b]
        self.swap(s, a, b)
        tenure = self.tuning.tenure_lo + self.rng.randrange(self.tuning.tenure_span)
        self.tabu[s][a * self.k + A] = self.step + tenure
        self.tabu[s][b * self.k + B] = self.step + tenure

    def _keep_if_best(self) -> bool:
        """Remember the current schedule if it is the best so far; True when it is."""
        if self.cost >= self.best_cost:
            return False
        self.best_cost, self.best = self.cost, [list(ts) for ts in self.tab]
        self.last_improve_step = self.step
        self.last_improve_evals = self.evals
        return True

    def _perturb(self) -> None:
        """Restart from the best schedule with a few random swaps, forgetting the tabu list."""
        rng = self.rng
        self.load(self.best)
        for _ in range(1 + rng.randrange(self.tuning.kick)):
            s = rng.randrange(self.d) if self.d > 1 else 0  # one session: nothing to draw
            a, b = rng.choice(self.movable_ids), rng.choice(self.movable_ids)
            if self.tab[s][a] != self.tab[s][b]:
                self.swap(s, a, b)
        self.last_improve_step = self.step
        self.tabu = self._fresh_tabu()
        self.evals += self.n * self.d
