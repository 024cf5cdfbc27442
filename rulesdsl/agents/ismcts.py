"""Information-set Monte Carlo tree search (Cowling, Powley and Whitehouse, 2012) over
`Knowledge.sample`: each iteration samples a full state from what the mover knows, walks
down the tree over the actions available in that sample, adds one node, plays on with an
informed policy to a horizon (playout.py), values the position (outcome.py) and backs
the rewards up.

The search keeps one tree per player (their "multiple-observer" variant): the player to
move chooses from its own tree, in which the others' moves appear as it saw them, so a
card bid face down does not tell the opponent's statistics what was bid. A node's
statistics are from the point of view of the player who moved into it. The others' trees
learn only from samples in which the mover's hidden cards are dealt again as they see
them (each seat from its own view only), so the search does not play as if its hand were
open.

Strength is set by budgets of iterations, never by wall time: the same seed gives the
same move on a busy machine and an idle one. A cap on the CPU time of the thread that
searches (not wall time, nor the CPU of other threads: a server searching for several
tables at once) only guards against a game whose iterations are far slower than usual.
"""

from __future__ import annotations

import math
import random
import time

from rulesdsl.agents.choosing import actions_to_choose
from rulesdsl.agents.collector import searching
from rulesdsl.agents.habits import Habits
from rulesdsl.agents.outcome import RIVAL, Judge
from rulesdsl.agents.playout import (Horizon, MoveAverages, NoOption, first, options_of,
                                     play_on)
from rulesdsl.engine.determinize import Knowledge
from rulesdsl.engine.knowledge import SeenKnowledge
from rulesdsl.engine.together import withdraw_pending_choices
from rulesdsl.lang.errors import RulesError

# level -> (iterations, CPU seconds cap, decisions per playout, playout epsilon, the others'
# secret choices made before the mover's chosen again by their trees: `together`)
# The caps are a safety net for a machine far slower than this one, about three times the
# heaviest decisions of the bundled games here, not a budget: at 1.2 s `medium`'s cap cut
# short up to 0.7% of the moves of two bundled games under load (a loaded machine's cores
# run the same work slower, even in CPU time), and those moves then depended on the load
# (docs/api.md)
LEVELS = {
    "easy": (60, 0.6, 8, 0.5, False),
    "medium": (400, 2.5, 24, 0.25, False),
    "hard": (1200, 10.0, 40, 0.2, True),
}

CHECK_EVERY = 16  # iterations between checks whether the search can stop early
# with three or more players, the weight of the move averages of the seat's last search in
# this game that a search starts from (`warm`; 0: from nothing). 0.5: the weakest bundled
# row with five players won 21.5 of 54 paired deals against 12 (16 better, 6 worse), the
# other games tried unmoved (benchmarks/results-arena.md, twenty-second session)
WARM = 0.5
WIDEN = 2.0       # a node may have about WIDEN * sqrt(visits) children (progressive widening)
# past MANY options (dozens of amounts to bid or pay), about NARROW * sqrt(visits): a few
# options, the best by look-ahead first, each visited enough to tell apart, and another
# seat's node a model of a few likely moves, not dozens alike
NARROW = 0.5
MANY = 24


class _Node:
    __slots__ = ("player", "visits", "total", "squares", "avail", "children", "prior")

    def __init__(self, player):
        self.player = player      # who chose the action leading here
        self.visits = 0
        self.total = 0.0
        self.squares = 0.0        # sum of squared rewards: the spread of the estimate
        self.avail = 0            # iterations in which this action could be chosen
        self.children = {}        # (mover, label or what others saw) -> _Node
        self.prior = None         # label -> the mover's reward one move on (progressive bias)


class ISMCTSAgent:
    """ISMCTS with an iteration budget and a CPU-time cap.

    iterations: samples per decision; seconds: a cap on the CPU time of one decision
    (None: no cap, fully reproducible); exploration: UCB1's c; horizon: decisions per
    playout before the evaluation judges it (None: play to the end, or to the end of the
    round); epsilon: how often a playout move is uniform rather than the best-rated;
    secrets: keep the others' trees from learning the mover's hidden cards (see `choose`);
    lean: with three or more players, the widest look-ahead margin by which another seat's
    tie in the search is broken (`_lean`; 0: never); together: where others chose in
    secret before the mover (`ask together`), each sample is taken back to before their
    choices and their trees make them again, not drawn at random, and the search's
    favourite, not the look-ahead's, is the pairs' default (on at `hard`; None: the
    level's); reply: with two players, in the searcher's own iterations,
    the other seat, where its own tree visited its node fewer than `reply` times per
    option, answers by its one-move look-ahead on the file's `evaluate` (`_reply`; 0: by
    its visits alone; None: REPLY); rival: with three or more players, the share of the
    searcher's lead taken over the best other seat rather than over the others' mean
    (outcome.Judge; 0: the mean alone; None: RIVAL); habits: with three or more players,
    another seat whose earlier small decisions followed the one-move look-ahead no more
    than chance would is modelled as choosing at random there as often (habits.py;
    False or 0: every seat follows the look-ahead; 1: the small decisions, the default);
    warm: with three or more players, a search starts from the move averages of the same
    seat's last search in this game, their counts weighed by `warm`, not from nothing
    (`_warm_up`; 0: from nothing; None: WARM): from nothing, the first playouts are
    uniform random and read low, so the rewards of a search drift upwards as it goes and
    the actions tried first (the look-ahead's favourites) read lower than the later ones
    (0.5 by default since the twenty-second session: benchmarks/results-arena.md; two
    players are untouched).
    """

    name = "ismcts"

    def __init__(self, seed: int | None = None, level: str | None = None,
                 iterations: int | None = None, seconds: float | None = None,
                 exploration: float = 0.7, horizon: int | None = -1,
                 epsilon: float | None = None, bias: float = 1.0,
                 playout_cap: int | None = -1, secrets: bool = True, lean: float | None = None,
                 together: bool | None = None, reply: int | None = None,
                 rival: float | None = None, habits: int = 1, warm: float | None = None):
        if level is None and iterations is None:
            level = "medium"
        depth, eps, again = 24, 0.25, False
        if level is not None:
            if level not in LEVELS:
                from rulesdsl.lang.errors import did_you_mean
                raise RulesError("C002", f"unknown level '{level}' for ismcts; known: "
                                 f"{', '.join(LEVELS)}", hints=did_you_mean(level, LEVELS))
            li, ls, depth, eps, again = LEVELS[level]
            iterations = li if iterations is None else iterations
            seconds = ls if seconds is None else seconds
        if horizon == -1:  # not given: playout_cap is its older name
            horizon = depth if playout_cap == -1 else playout_cap
        self.level = level
        self.seed = seed
        self.rng = random.Random(seed)
        assert iterations is not None  # given, or the level's (medium when neither is)
        self.iterations = int(iterations)
        self.seconds = float(seconds) if seconds is not None else None
        self.exploration = float(exploration)
        self.horizon = None if horizon in (None, 0) else int(horizon)
        self.epsilon = eps if epsilon is None else float(epsilon)
        self.bias = float(bias)
        self.secrets = bool(secrets)
        self.lean = TIE if lean is None else float(lean)
        self.together = again if together is None else bool(together)
        self.reply = REPLY if reply is None else int(reply)
        self.rival = RIVAL if rival is None else float(rival)
        if habits not in (0, 1):
            raise RulesError("C002", f"ismcts's habits takes 0 (off) or 1 (on), not {habits!r}")
        self.habits = int(habits)
        self.warm = WARM if warm is None else float(warm)
        self._kept: tuple | None = None
        self._habits: Habits | None = None
        self.last_iterations = 0
        self.last_dropped = 0      # samples whose play broke the rules, this decision
        # did the CPU cap cut this decision's search short? Then the same seed may choose
        # otherwise on a machine that runs the same work slower (it stays reproducible
        # wherever the cap does not bind: `seconds=None` never caps)
        self.last_capped = False
        self.dropped = 0           # the same, over the agent's life
        self.analysis: list = []   # the last decision's options: (label, visits, value)

    def choose(self, state):
        with searching():  # the collector kept to the search's own objects (collector.py)
            return self._choose(state)

    def _choose(self, state):
        actions = actions_to_choose(state)
        if len(actions) == 1:
            self.last_iterations = self.last_dropped = 0
            self.last_capped = False
            self.analysis = [(actions[0].label, 0, None)]
            return actions[0]
        me = state.to_move
        knowledge = Knowledge(state, me)
        judge = Judge(state, self.rival)
        few = FEW if state.players > 2 else 0
        follow = self._follows(state, me, few, judge)
        policy = MoveAverages(self.rng, self.epsilon, None, judge if judge.informed else None,
                              few, me, follow)
        warm = self.warm and state.players > 2
        if warm:
            self._warm_up(state, me, policy)
        roots = [_Node(None) for _ in range(state.players)]
        stats = roots[me].children
        rng = self.rng
        cap = None if self.seconds is None else time.thread_time() + self.seconds
        budget = self.iterations
        done = dropped = 0
        self.last_capped = False
        everyone = frozenset(range(state.players))
        # where the mover holds cards the others cannot see, its own samples teach only its
        # own tree, and every other iteration one other seat's tree learns from a sample
        # dealt again as that seat sees it: only that seat, as the re-deal also dealt anew
        # a third seat's own cards (a third player betting as if blind to its own hidden
        # cards: 7 of 20 deals of a bluffing example won against 12 unsplit, 13 now)
        others = everyone - {me} if self.secrets and _holds_secrets(state, me, knowledge) \
            else None
        split = others is not None
        while done < budget:
            try:
                sample = knowledge.sample(rng.getrandbits(63))
                learners = everyone
                if others is not None:
                    if _teaches_the_mover(done, split):
                        learners = frozenset((me,))
                    else:
                        seer = rng.choice(sorted(others))
                        sample = _as_seen_by(sample, seer, me, rng.getrandbits(63))
                        learners = frozenset((seer,))
                lead = withdraw_pending_choices(sample, me) if self.together else 0
                self._iterate(roots, sample, judge, policy, learners, me, lead)
            except (RulesError, NoOption):
                dropped += 1  # a sample whose play breaks the rules: dropped, counted
            done += 1
            if done % CHECK_EVERY == 0:
                if self._decided(roots[me], me, actions,
                                 _mover_visits_left(done, budget, split)):
                    break
                if cap is not None and time.thread_time() > cap:
                    self.last_capped = True
                    break
        self.last_iterations = done
        if warm:
            self._kept = (_game_key(state, me), list(state.history), policy.table)
        self.last_dropped = dropped
        prior = roots[me].prior or {}
        ranked = sorted(actions, key=lambda a: _rank(stats.get((me, a.label))), reverse=True)
        self.analysis = [(a.label, *_summary(stats.get((me, a.label)))) for a in ranked]
        close = _close(ranked, [stats.get((me, a.label)) for a in ranked], prior)
        searched = close[0]  # the search's own favourite, the most visited
        # the close actions, the one-move look-ahead's favourite first: the default. Not
        # where others chose in secret before the mover (`together`): one move on, their
        # choices are revealed as a sample drew them, and the look-ahead would favour the
        # bid that beats that sample's (in a sealed-bid game: the highest card on any prize)
        # Nor where the mover sees everything (`_sees_all`) and its search is no guess: there
        # the look-ahead reads no luck, it is merely one move deep, and the search, as deep
        # as its playouts, is the better judge of actions it cannot yet tell apart
        clear = _searched_enough(stats.get((me, searched.label)), len(actions)) and \
            _sees_all(knowledge, state, me)
        if not (self.together and _after_secret_choices(state, me)) and not clear:
            close.sort(key=lambda a: prior.get(a.label, 0.0), reverse=True)
        if len(close) > 1:
            close = self._verify(close, close.index(searched), knowledge, judge, policy, me,
                                 cap, roots)
        self.dropped += self.last_dropped
        return close[0]

    def _follows(self, state, me: int, few: int, judge: Judge) -> dict | None:
        """Seat -> how far its small decisions so far followed the look-ahead beyond
        chance, for the seats short of always (habits.py); None where no seat is modelled
        so (two players, no look-ahead, `habits` off, or every seat followed it)."""
        if not (self.habits and few and judge.informed):
            return None
        if self._habits is None or self._habits.seat != me:
            self._habits = Habits(me, few)
        self._habits.update(state)
        return self._habits.follows() or None

    def _warm_up(self, state, me: int, policy: MoveAverages) -> None:
        """With `warm`: the move averages of this seat's last search in this game, their
        counts weighed by `warm`, as the playouts' knowledge to start from."""
        kept = self._kept
        if kept is None:
            return
        key, history, table = kept
        now = state.history
        if key != _game_key(state, me) or len(history) > len(now) or \
                now[:len(history)] != history:
            self._kept = None
            return
        f = self.warm
        means = policy.means
        for k, (total, count) in table.items():
            policy.table[k] = [total * f, count * f]
            means.setdefault(k[0], {})[k[1]] = total / count

    @staticmethod
    def _decided(root: _Node, me: int, actions: list, left: int) -> bool:
        """Can more search not change the choice? The most visited action cannot be
        overtaken in the `left` visits its root can still have, and no other is close
        enough to it to be compared in pairs."""
        stats = root.children
        if not _settled(stats, me, actions, left):
            return False
        ranked = sorted(actions, key=lambda a: _rank(stats.get((me, a.label))), reverse=True)
        return len(_close(ranked, [stats.get((me, a.label)) for a in ranked],
                          root.prior or {})) == 1

    def _verify(self, close: list, searched: int, knowledge, judge: Judge,
                policy: MoveAverages, me: int, cap, roots: list | None = None) -> list:
        """The actions the search could not tell apart, compared in pairs: each is played
        on the same samples, with the same random numbers after it, so that what they share
        (the cards dealt, the others' luck) cancels out and only their difference remains.
        The first (the look-ahead's favourite) stands unless another beats it by more than
        twice the standard error of their mean difference: a difference the pairs cannot
        show is noise, and then the cheap look-ahead (do not spend a card for nothing) is
        the better judge. Returns the chosen action first. Half the budget's playouts,
        under the same CPU cap (at least MIN_ROUNDS rounds).

        The look-ahead was worked out on one sample, so where hidden cards decide a move's
        result it may be that sample's luck (a card played blind that happened to fit):
        the look-ahead on these samples then decides whether it stays the default, and
        where it falls short of the search's own favourite (`searched`, an index into
        `close`) by LUCK standard errors, that favourite is the default instead.

        With `together`, the others' secret choices made before the mover's are taken back
        on each sample and made again, the same for every action of a round, as each
        seat's tree (`roots`) played them in the search (`_lead_in`)."""
        rounds = max(MIN_ROUNDS, self.iterations // (2 * len(close)))
        # with three or more players the others' small decisions go by the look-ahead (a
        # seat choosing between two rivals' offers takes the one that gives it more), else
        # a higher offer never shows its worth
        few = FEW if knowledge.state.players > 2 else 0
        results: list = [[] for _ in close]
        looks: list = [[] for _ in close]  # the reward right after each action, per sample
        for done in range(rounds):
            if done >= MIN_ROUNDS and cap is not None and time.thread_time() > cap:
                self.last_capped = True
                rounds = done
                break
            seed = self.rng.getrandbits(63)
            sample = knowledge.sample(seed)
            if self.together and roots is not None:
                lead = withdraw_pending_choices(sample, me)
                if lead:
                    try:
                        _lead_in(sample, roots, me, lead, self.rng, policy)
                    except (RulesError, NoOption):
                        self.last_dropped += 1
                        continue
            row = []
            sample.keep_origin()  # one snapshot for the clones, not one each
            for action in close:
                s = sample.clone()
                replay = MoveAverages(random.Random(seed), policy.epsilon, policy,
                                      policy.judge, few, me, policy.follow)
                horizon = self._horizon(s, judge, settle=True)  # from before the move
                try:
                    _apply_label(s, action.label)
                    look = judge.rewards(s)[me]
                    play_on(s, replay, horizon, [], 1)
                    row.append((judge.rewards(s)[me], look))
                except (RulesError, NoOption):
                    self.last_dropped += 1
                    break
            if len(row) == len(close):  # a sample that broke the rules for one: for none
                for i, (r, look) in enumerate(row):
                    results[i].append(r)
                    looks[i].append(look)
        if searched and _better(looks[searched], looks[0], LUCK):
            order = [searched] + [i for i in range(len(close)) if i != searched]
            close = [close[i] for i in order]
            results = [results[i] for i in order]
        return _beats_default(close, results)

    def _iterate(self, roots: list, s, judge: Judge, policy: MoveAverages,
                 learners=None, me: int | None = None, lead: int = 0) -> None:
        """One iteration over one tree per player (multiple-observer ISMCTS): each player
        chooses from its own tree, and the others' trees follow the move as they saw it,
        so no one's statistics depend on what it could not see (a card bid face down).
        Only the trees (and move averages) of the seats in `learners` (None: all) learn
        from this sample: a sample that holds the searcher's real hand must not teach
        the others to guess it. With three or more players, at a decision of a seat other
        than the searcher `me`, the search's choice gives way to the one-move look-ahead's
        favourite where the two are too close to tell apart (`_lean`).

        `lead`: the sample starts that many decisions before the searcher's own, the
        others' secret choices it took back (`withdraw_pending_choices`). The others choose
        them again from their trees; the searcher's tree, which saw nothing of them, stays
        at its root through them, and the walk goes on past a node added there (their
        decisions must be made before the searcher's can be learnt)."""
        rng = self.rng
        c = self.exploration
        n = len(roots)
        at = list(roots)
        paths = [[r] for r in roots]
        taken: list = []
        horizon = self._horizon(s, judge)
        # a seat all but indifferent between actions that matter to the others (between two
        # rivals' pieces) is met only with three or more players; with two, leaning
        # the other towards the look-ahead made it too greedy a model (a sealed-bid example
        # against random: 33.0 of 40 deals, 35.5 without)
        lean = self.lean if n > 2 else 0.0
        # the other seat's replies by its look-ahead where its tree knows little: only where
        # the file declares an evaluation (an author's judgement of a position, which one
        # move on is a beginner's rule of thumb; a bare score one move on is none), and
        # with two players, where it was measured (with more, the others' small decisions
        # in playouts go by the look-ahead already: FEW)
        reply = self.reply if judge.declared and policy.judge is not None and n == 2 else 0
        depth = -lead  # the horizon counts from the searcher's decision
        while not s.is_over and not horizon.reached(s, depth):
            mover, options = options_of(s)
            node = at[mover]
            children = node.children
            labels = list(map(first, options))
            keys = [(mover, label) for label in labels]
            learns = learners is None or mover in learners
            # a seat that does not learn from this sample takes no look-ahead from it either
            made: dict = {}  # label -> its position one move on, made by the look-ahead
            prior = self._prior(node, s, mover, options, judge, made) if learns else \
                (node.prior or {})
            tried = []  # (label, node) of the actions backed up before
            untried = []
            for k in keys:
                ch = children.get(k)
                if ch is None or not ch.visits:  # never backed up: its sample was dropped
                    untried.append(k)
                else:
                    if learns:
                        ch.avail += 1
                    tried.append((k[1], ch))
            widen = WIDEN if len(options) <= MANY else NARROW
            expand = learns and untried and len(tried) < widen * math.sqrt(node.visits + 1)
            if learns and policy.strays(mover, len(options)):
                # a seat whose small choices did not follow the look-ahead: one at random
                label = labels[rng.randrange(len(labels))]
                expand = any(k[1] == label for k in untried)
            elif not learns and reply and (not tried or node.visits < reply * len(options)):
                label = self._reply(s, mover, me, options, policy, made)
            elif not learns:
                # a seat that does not learn here plays its search's mixed strategy so far
                # (by visits), not UCB's one favourite of the moment: against a hand the
                # samples all share, a favourite that happens to guess it would always win.
                # Where its tree knows nothing yet, the playout policy (a random pick would
                # make the mover's tree optimistic), and its tree is not grown: the walk
                # goes on for the mover's tree below
                label = _by_visits(keys, children, rng) if tried else \
                    options[policy.pick(mover, options)][0]
            elif expand:
                label = _best_untried(untried, prior, rng)
            else:
                label = _by_ucb(tried, prior, c, self.bias)
                if lean and mover != me:
                    label = _lean(tried, label, prior, lean)
            option = options[labels.index(label)]
            before = len(s.events)
            ahead = made.get(label)
            if ahead is None:
                s.apply_option(mover, option)
            else:  # the look-ahead applied it already
                s.take_over(*ahead)
            taken.append((mover, label))
            depth += 1
            new = s.events[before:]
            ahead = depth <= 0  # a decision taken back: made again before the searcher's
            for q in range(n):
                if ahead and q == me:
                    continue
                # keyed by who moved too: whose turn it is may differ between samples
                key = (mover, label if q == mover else _seen_as(s, new, q, label))
                child = at[q].children.get(key)
                if child is None:
                    child = at[q].children[key] = _Node(mover)
                if q == mover and learns and not child.avail:
                    child.avail = 1  # made where this seat did not learn: first offered now
                at[q] = child
                paths[q].append(child)
            if expand and not ahead:
                break
        play_on(s, policy, horizon, taken, depth)
        reward = judge.rewards(s)
        if learners is not None:
            taken = [t for t in taken if t[0] in learners]
            paths = [path for q, path in enumerate(paths) if q in learners]
        policy.learn(taken, reward)
        for path in paths:
            for node in path:
                node.visits += 1
                if node.player is not None:
                    r = reward[node.player]
                    node.total += r
                    node.squares += r * r

    def _reply(self, s, mover: int, me, options, policy: MoveAverages, made: dict) -> str:
        """Another seat's reply in an iteration that teaches not its tree but the
        searcher's, where its own tree has seen the position too seldom to have a mixed
        strategy worth drawing from: the option best by the evaluation one move on, from
        its point of view, worked out on `s` with the searcher's hidden cards dealt again
        as that seat sees them (one move on, a sample would show it the searcher's real
        hand: a guess that always hits). Where nothing was dealt again, the position it
        leaves is kept in `made` for the walk to take over."""
        seen, offered = s, options
        if self.secrets and me is not None and mover != me:
            seen = _as_seen_by(s, mover, me, self.rng.getrandbits(63))
            seat, offered = options_of(seen)
            if seat != mover:
                raise NoOption("a re-dealt position that another seat moves in")
        best, ahead = policy.look_ahead(seen, mover, offered, None, seen is not s)
        label = offered[best][0]
        if seen is s and ahead is not None:
            made[label] = ahead
        elif not any(o[0] == label for o in options):
            # an option only the re-dealt hand allowed: the playout policy's pick instead
            label = options[policy.pick(mover, options)][0]
        return label

    def _horizon(self, s, judge: Judge, settle: bool = False) -> Horizon:
        """Where this search's playouts from `s` stop: at the end of a round once every
        seat had about two decisions (`settle`: at the end of this round, to compare moves
        by how the round they are made in ends), or after `horizon` decisions; at the end
        of the game where nothing could judge a position before it."""
        if not judge.informed:
            return Horizon(s, None, None)
        return Horizon(s, self.horizon, 0 if settle else 2 * s.players)

    @staticmethod
    def _prior(node: _Node, s, mover: int, options, judge: Judge,
               made: dict | None = None) -> dict:
        """Each option's one-move look-ahead for the mover: the reward of the position
        right after it, worked out on the sample that first reaches the node with that
        option (progressive bias: it guides the first visits, the search the later ones).
        A look-ahead that breaks the rules scores 0. `made`, given: each label rated now
        -> its position one move on and the frames it was cloned with (`State.take_over`'s
        arguments)."""
        prior = node.prior
        if prior is None:
            prior = node.prior = {}
        if len(options) == 1:
            return prior
        afters = []
        for o in options:
            label = o[0]
            if label not in prior:
                s.keep_origin()  # one snapshot for the clones, not one each
                after = s.clone()
                copies = after.frames[:]
                try:
                    after.apply_option(mover, o)
                except RulesError:
                    prior[label] = 0.0
                    continue
                afters.append((label, after))
                if made is not None:
                    made[label] = (after, copies)
        # with three or more players on one scale: the judge's widens to the widest lead
        # among them all first, else an option that widened it rates 0 or 1 whatever it is
        # worth (every amount of a round's first offer rated 0, so the cheapest was no
        # favourite). With two, one by one as before: there the look-ahead reads one
        # sample's luck (a sealed bid against the bid that sample dealt), and a sealed-bid
        # example against random fell from 35.5 to 31.5 of 40 deals when it was sharpened
        rated = judge.rewards_all([a for _, a in afters]) if s.players > 2 else \
            [judge.rewards(a) for _, a in afters]
        for (label, _), rewards in zip(afters, rated):
            prior[label] = rewards[mover]
        return prior

    def __repr__(self) -> str:
        return (f"ISMCTSAgent(seed={self.seed!r}, level={self.level!r}, "
                f"iterations={self.iterations!r}, seconds={self.seconds!r})")


def _game_key(state, me: int) -> tuple:
    """What tells one game (and seat) from another, for what a search keeps between its
    decisions."""
    return (id(state.prog), state.seed, repr(state.scenario), state.players, me)


def _best_untried(untried: list, prior: dict, rng) -> str:
    """The untried action to add: the best by its one-move look-ahead, at random among
    equals."""
    best: str = untried[0][1]
    best_value, ties = prior.get(best, 0.5), 1
    for k in untried[1:]:
        v = prior.get(k[1], 0.5)
        if v > best_value:
            best, best_value, ties = k[1], v, 1
        elif v == best_value:
            ties += 1
            if rng.randrange(ties) == 0:
                best = k[1]
    return best


def _by_ucb(tried: list, prior: dict, c: float, w: float) -> str:
    """The label of the tried action (label, node) best by UCB1 with progressive bias
    (the one-move look-ahead, weighing less as the node is visited), the first among
    equals."""
    def value(entry: tuple) -> float:
        label, node = entry
        v = node.visits
        return node.total / v + c * math.sqrt(math.log(node.avail) / v) + \
            w * prior.get(label, 0.5) / (v + 1)
    return max(tried, key=value)[0]


LEAN_VISITS = 2  # visits each of two actions needs before the look-ahead may break their tie
# the widest look-ahead margin (of the reward range, 0-1) the look-ahead may break another
# seat's tie by: what a payment to a seat buys in its evaluation was measured at
# 0.005-0.05, below the noise of a node visited a few dozen times; a sealed bid's gain
# against the bids one sample dealt is 0.05-0.2, and leaning on that one sample's luck
# cost (benchmarks/results-arena.md, ninth session)
TIE = 0.05


def _lean(tried: list, label: str, prior: dict, widest: float = 1.0) -> str:
    """At another seat's decision: `label` (the search's pick among `tried`, (label, node)),
    or the tried action best by the one-move look-ahead where the search cannot tell the
    two apart (their means within two standard errors of their difference, each visited
    LEAN_VISITS times or more) and the look-ahead's margin is at most `widest`. Left to
    the search alone, a seat indifferent between two actions up to a margin far below the
    playouts' noise (choosing between two other seats, one of which paid it more) takes
    each half the time, and what would sway it (paying more) buys nothing in the
    searcher's eyes."""
    best = max(tried, key=lambda e: prior.get(e[0], 0.5))
    margin = prior.get(best[0], 0.5) - prior.get(label, 0.5)
    if best[0] == label or margin <= 0 or margin > widest:
        return label
    node = next(n for lab, n in tried if lab == label)
    other = best[1]
    if node.visits < LEAN_VISITS or other.visits < LEAN_VISITS:
        return label
    (m1, v1), (m2, v2) = _estimate(node), _estimate(other)
    return best[0] if m1 - m2 <= 2 * math.sqrt(v1 + v2) else label


def _after_secret_choices(state, me: int) -> bool:
    """Is `me` asked in an `ask together` after others who have chosen in secret?"""
    return withdraw_pending_choices(state.clone(), me) > 0


def _lead_in(s, roots: list, me: int, lead: int, rng, policy: MoveAverages) -> None:
    """Make again on `s` the `lead` secret choices taken back before `me`'s decision, each
    seat by its tree's mixed strategy (`_by_visits`), by the playout policy where its tree
    holds nothing there."""
    at = list(roots)
    for _ in range(lead):
        mover, options = options_of(s)
        keys = [(mover, o[0]) for o in options]
        children = at[mover].children
        if any(k in children and children[k].visits for k in keys):
            label = _by_visits(keys, children, rng)
        else:
            label = options[policy.pick(mover, options)][0]
        before = len(s.events)
        s.apply_option(mover, options[[o[0] for o in options].index(label)])
        new = s.events[before:]
        for q in range(len(at)):
            if q != me:
                key = (mover, label if q == mover else _seen_as(s, new, q, label))
                at[q] = at[q].children.get(key) or _Node(mover)


def _by_visits(keys: list, children: dict, rng) -> str:
    """A tried action drawn with probability proportional to its visits."""
    weights = [(k[1], children[k].visits) for k in keys
               if k in children and children[k].visits]
    pick = rng.randrange(sum(v for _, v in weights))
    for label, v in weights:
        pick -= v
        if pick < 0:
            return label
    return weights[-1][0]


def _sees_all(knowledge, state, me: int) -> bool:
    """Does the mover `me` see the whole position: no card or variable hidden from it, no
    secret choice of another made before its own, so that every sample is the position
    itself?"""
    return knowledge.hides_nothing() and not _after_secret_choices(state, me)


SEARCHED = 8  # visits per action of the mover's root before its favourite is no guess


def _searched_enough(node, actions: int) -> bool:
    """Was the search's favourite (its root `node`) visited SEARCHED times per action the
    mover has? Not where a playout costs so much that a move gets a few iterations."""
    return node is not None and node.visits >= SEARCHED * actions


def _better(a: list, b: list, z: float = 2.0) -> bool:
    """Is `a` better than `b`, paired sample by sample, by more than two standard errors of
    their mean difference?"""
    n = len(a)
    if n < 2:
        return False
    diffs = [x - y for x, y in zip(a, b)]
    mean = sum(diffs) / n
    var = max(sum(d * d for d in diffs) / n - mean * mean, 0.0) / (n - 1)
    return mean > z * math.sqrt(var)


def _beats_default(close: list, results: list) -> list:
    """`close` with its first action (the default) replaced at the head by the one with the
    best paired mean, if that one beats the default by more than two standard errors of
    their per-sample differences."""
    base = results[0]
    n = len(base)
    if n < 2:
        return close
    best, best_mean = 0, 0.0
    for i in range(1, len(close)):
        mean = sum(r - b for r, b in zip(results[i], base)) / n
        if mean > best_mean and _better(results[i], base):
            best, best_mean = i, mean
    return [close[best]] + [a for i, a in enumerate(close) if i != best]


# in the searcher's own iterations, another seat's node visited fewer than REPLY times per
# option in its own tree answers by its one-move look-ahead (`_reply`), not by its visits
REPLY = 4
CLOSE = 4       # at most this many actions compared in pairs
# in playouts (3+ players), the others' decisions of at most FEW options go by the look-ahead
# (5: a seat at medium took the offer that gave it more for 8 seeds of 10 where it takes
# it for 10 with 3, and the search took 1.22 s of CPU a move at five players)
FEW = 3
MIN_ROUNDS = 8  # samples the pairs get at least, even past the CPU cap
# standard errors by which the look-ahead on the pairs' samples must fall short of the
# search's favourite for that favourite to become the default: a low bar, since the
# look-ahead it replaces came from one sample (a card played blind that happened to fit)
LUCK = 0.5


def _close(ranked: list, nodes: list, prior: dict) -> list:
    """The most visited action, with the others whose mean reward lies within two standard
    errors of the difference from it (visited twice or more): the actions the search
    cannot tell apart. Past CLOSE of them, the most visited and those best by look-ahead
    (of twenty amounts the search sees alike, the ones that cost least one move on)."""
    best = nodes[0]
    if best is None or best.visits < 2:
        close = ranked
    else:
        mean, var = _estimate(best)
        close = [a for a, node in zip(ranked, nodes) if node is not None and node.visits >= 2
                 and mean - _estimate(node)[0] <= 2 * math.sqrt(var + _estimate(node)[1])]
    if len(close) <= CLOSE:
        return close or ranked[:1]
    by_look_ahead = sorted(close[1:], key=lambda a: prior.get(a.label, 0.0), reverse=True)
    return [close[0]] + by_look_ahead[:CLOSE - 1]


def _estimate(node) -> tuple:
    """(mean reward, its variance) of a node visited twice or more."""
    n = node.visits
    mean = node.total / n
    var = max(node.squares / n - mean * mean, 0.0) / (n - 1)
    return mean, var


def _rank(node) -> tuple:
    return (-1, 0.0) if node is None else (node.visits, node.total)


def _summary(node) -> tuple:
    """(visits, mean reward) of a root action; (0, None) if never tried."""
    return (0, None) if node is None or not node.visits else (node.visits,
                                                             node.total / node.visits)


def _teaches_the_mover(done: int, split: bool) -> bool:
    """Does iteration `done` (from 0) teach the mover's tree? Every one, or, where the search
    is split, every other one (the others' trees learn from the rest)."""
    return not split or done % 2 == 0


def _mover_visits_left(done: int, budget: int, split: bool) -> int:
    """How many of iterations done..budget-1 teach the mover's tree: the most its root's
    visits can still grow by."""
    return sum(_teaches_the_mover(i, split) for i in range(done, budget))


def _settled(stats: dict, me: int, actions: list, left: int) -> bool:
    """True when the most visited action cannot be overtaken in the `left` visits the
    mover's root can still have: each iteration that teaches the mover's tree visits one
    root action, so more search would choose the same."""
    first = second = 0
    for a in actions:
        node = stats.get((me, a.label))
        v = node.visits if node is not None else 0
        if v > first:
            first, second = v, first
        elif v > second:
            second = v
    return first - second > left


def _holds_secrets(state, me: int, knowledge) -> bool:
    """Does some other seat not know which cards `me` holds out of its sight (a hand, a
    card looked at)? A hand hidden from the others but known to them all the same (dealt
    from the mover's own deck, the rest played face up) is no secret: dealt again as they
    see it, it comes out the same, and splitting the search would only halve it. Asked of
    a sample (what the others could know of a state that looks like this one to `me`), so
    the answer depends on nothing `me` cannot see."""
    sample = None
    for q in range(state.players):
        if q == me:
            continue
        mine = [zi for zi in range(len(state.zones)) if state.zones[zi]
                and state.can_see(zi, me) and not state.can_see(zi, q)]
        if not mine:
            continue
        if sample is None:
            sample = knowledge.sample(0)
        if not _known_to(SeenKnowledge(sample, q, me), sample, mine):
            return True
    return False


def _known_to(seen: SeenKnowledge, s, zones: list) -> bool:
    """Would `seen`'s seat deal `zones` of `s` again exactly as they are: each of their
    cards can lie only where it is, no other card may lie there, and their order is either
    irrelevant (unordered) or nothing to guess (a single card)?"""
    unordered = s.prog.zone_unordered
    for zi in zones:
        if len(s.zones[zi]) > 1 and not unordered[zi]:
            return False
        if any(seen.allowed.get(c, (zi,)) != (zi,) for c in s.zones[zi]):
            return False
    wanted = set(zones)
    return not any(s.loc[c] not in wanted and wanted.intersection(where)
                   for c, where in seen.allowed.items())


def _as_seen_by(sample, q: int, me: int, seed: int):
    """`sample` with every card `q` cannot see dealt again from what q saw: the searcher's
    hand as q could think it is, q's own cards (the searcher's guess) kept. Variables stay
    as the sample has them. A third seat's own cards are dealt anew too, so only q may
    learn from the result. What q saw is taken as far as the searcher `me` saw it too: the
    sample's log is the real one, and a card shown to q alone is one `me` must not learn."""
    knowledge = SeenKnowledge(sample, q, me)
    knowledge.amounts = sample.vars  # hidden variables: the sample's values, not a default
    return knowledge.sample(seed)


def _apply_label(s, label: str) -> None:
    """`s.apply(label)` on a sample, without an Action made for each option: the option
    so labelled applied as it is (a sample's moves are not held to the file's invariants
    by `apply` either: its guess may break them). Where there is none, `apply` says why."""
    if s.inferred is not None and not s.is_over:
        seat, options = s.options()
        for option in options:
            if option[0] == label:
                s.apply_option(seat, option)
                return
    s.apply(label)


def _seen_as(s, new: list, q: int, label: str):
    """How seat q saw a move: its label when q could see everything the move showed, else
    what q saw of it up to the first thing hidden from q (later events are not told
    apart, as a player's own tree does not tell chance apart either)."""
    for i, e in enumerate(new):
        if not s.seen_alike(e, q):
            return ("hidden",) + tuple(s.render_log(x, q) for x in new[:i + 1])
    return label
