#!/usr/bin/env python3
"""Plays whole VII Legio games (game_type "legio", 2 to 4 commanders)
against a running server, with code generated from the .proto files alone:
tabletop.v1 for the platform, legio.v1 for the packed setup, state, events
and typed choices. JSON fields are never read.

Each game is created with a packed legio.v1.LegioSetup; every seat is
claimed with its own token and followed with its own StreamGame, beside a
spectator's stream. The decider picks an option (seeded, weighted by the
typed LegioChoice) and sends it with SubmitChoice and expected_seq, until
the outcome. At every seq it checks what the .proto comments and the host's
secrecy rules promise:

- each seat's LegioState holds its own private part (`secrets`) and no
  other's; a spectator's holds none; everyone sees the same public table
  (a seat's state minus `viewer_seat` and `secrets` is the spectator's);
  the private part agrees with the public counts, and the hands and kept
  objectives of different seats never share a card;
- the options go only to the deciding seat; each carries a typed
  LegioChoice named like its id's first word;
- every event carries a packed LegioEvent whose oneof field is its kind,
  the same for every viewer;
- a history entry's option_id reaches only the seat that chose it while the
  game is live (streams and GetHistory), and nobody reads the seed of a
  live game (not even its creator);
- a non-decider's SubmitChoice is PERMISSION_DENIED with the same words
  whatever id it sends;
- the outcome is RANKED with one score per seat, and either a ranking or
  `truncated` (then no ranking and no winners), as the typed LegioOutcome
  says.

Usage: play_legio.py --server HOST:PORT [--seed S] [--games 2,3,4] [--strict]
(run.sh generates the code, starts a server and calls it.)
"""

import argparse
import collections
import queue
import random
import sys
import threading
import time

from common import (  # noqa: E402 (common puts the generated code on the path)
    SCHEMA_VERSION, STREAM_WAIT_SECONDS, TYPE_PREFIX, Failure, channel, check, rpc_error, wait_serving)

import grpc  # noqa: E402
from google.protobuf import any_pb2  # noqa: E402

from legio.v1 import choice_pb2 as lc  # noqa: E402
from legio.v1 import events_pb2 as le  # noqa: E402
from legio.v1 import setup_pb2 as lsetup  # noqa: E402
from legio.v1 import state_pb2 as ls  # noqa: E402
from tabletop.v1 import game_pb2 as tt  # noqa: E402
from tabletop.v1 import service_pb2 as svc  # noqa: E402
from tabletop.v1 import service_pb2_grpc as svc_grpc  # noqa: E402

GAME_TYPE = "legio"
STATE_URL = TYPE_PREFIX + "legio.v1.LegioState"
EVENT_URL = TYPE_PREFIX + "legio.v1.LegioEvent"
CHOICE_URL = TYPE_PREFIX + "legio.v1.LegioChoice"
CONFIG_URL = TYPE_PREFIX + "legio.v1.LegioConfig"
STEP_CAP = 2500  # choices per game before the run fails as "does not end"
HISTORY_EVERY = 40  # steps between GetHistory checks of a live game
REFUSAL_EVERY = 60  # steps between non-decider refusal checks

# Catalog categories the state's and choices' comments name.
CATEGORIES = {"exploration", "extrasolar", "imperator", "objective", "sector",
              "planet", "expert", "ship", "tech"}

# How much the simple player likes each kind of option (LegioChoice field).
# Unlisted kinds weigh 5. It declares the end when it may, lands, explores
# and accepts invitations readily, and ends its turn rarely, so that games
# end by the rules well before the round limit.
WEIGHTS = {
    "declare_end": 10000, "land_with_imperator": 80, "land_now": 60,
    "discard_all_to_discover": 60, "accept": 50, "explore": 40,
    "send_invitations": 30, "invite": 30, "enter_sector_x": 20,
    "leave_sector_x": 20, "move": 10, "fight": 10, "evade": 10, "equip": 8,
    "recruit": 6, "decode": 4, "end_turn": 3, "leave_nobody": 3,
    "dismiss_nobody": 3, "repair": 2, "decline": 1, "abort_landing": 0.5,
}


# Promises the server does not keep at the time of writing: checked, and a
# warning unless --strict. Remove an entry once the server is fixed.
KNOWN_DEVIATIONS = {}


def packed(msg):
    a = any_pb2.Any()
    a.Pack(msg)
    return a


def unpack(any_msg, cls, url, *ctx):
    check(any_msg.type_url == url, "type URL", any_msg.type_url, url, *ctx)
    m = cls()
    check(any_msg.Unpack(m), "does not unpack as " + url, *ctx)
    return m


def public_part(x):
    """The state minus what only its viewer gets."""
    p = ls.LegioState()
    p.CopyFrom(x)
    p.ClearField("viewer_seat")
    p.ClearField("secrets")
    return p.SerializeToString(deterministic=True)


class Stats:
    def __init__(self, strict):
        self.strict = strict
        self.deviations = collections.OrderedDict()  # key -> (count, first example)
        self.games = 0
        self.steps = 0
        self.events = 0
        self.views = 0
        self.refusals = 0
        self.histories = 0
        self.event_kinds = collections.Counter()
        self.decision_kinds = collections.Counter()
        self.choice_kinds = collections.Counter()

    def deviation(self, key, ok, example):
        if ok:
            return
        check(key in KNOWN_DEVIATIONS, "unknown deviation key " + key)
        if self.strict:
            raise Failure(KNOWN_DEVIATIONS[key] + ": " + example)
        count, first = self.deviations.get(key, (0, example))
        self.deviations[key] = (count + 1, first)


class Catalog:
    def __init__(self, resp):
        check(resp.game_type == GAME_TYPE, "catalog game_type", resp.game_type)
        self.by_index = collections.defaultdict(dict)
        for e in resp.entries:
            check(e.category and e.id and e.name and e.text, "catalog entry without category, id, name or text", e)
            check(e.index not in self.by_index[e.category], "duplicate catalog index", e.category, e.index)
            self.by_index[e.category][e.index] = e
        runs = [e.category for i, e in enumerate(resp.entries)
                if i == 0 or resp.entries[i - 1].category != e.category]
        check(len(runs) == len(set(runs)), "catalog categories are not grouped", runs)
        for cat in CATEGORIES:
            check(self.by_index[cat], "catalog has no %r entries" % cat)

    def has(self, category, index, *ctx):
        check(index in self.by_index[category], "not in catalog category " + category, index, *ctx)

    def card_id(self, category, index):
        return self.by_index[category][index].id


class Follower(threading.Thread):
    """One StreamGame from seq 0 (a seat's, or a spectator's with seat None),
    its messages pushed to a queue; None marks its end."""

    def __init__(self, stub, game_id, seat, token):
        super().__init__(daemon=True)
        creds = tt.SeatCredentials(seat=seat, token=token) if seat is not None else None
        self.call = stub.StreamGame(svc.StreamGameRequest(game_id=game_id, from_seq=0, credentials=creds))
        self.seat = seat
        self.q = queue.Queue()
        self.error = None

    def run(self):
        try:
            for m in self.call:
                self.q.put(m)
        except grpc.RpcError as err:
            if err.code() != grpc.StatusCode.CANCELLED:
                self.error = err
        self.q.put(None)

    def next(self, *ctx):
        try:
            m = self.q.get(timeout=STREAM_WAIT_SECONDS)
        except queue.Empty:
            raise Failure("no stream message within %d s" % STREAM_WAIT_SECONDS, "viewer %s" % self.seat, *ctx)
        check(m is not None, "stream ended early", "viewer %s" % self.seat, self.error, *ctx)
        return m


class Table:
    """One game being played: its id, seats, tokens and streams."""

    def __init__(self, stub, cat, stats, name, n, seed, round_limit, pick_seed):
        self.stub, self.cat, self.stats, self.name, self.n = stub, cat, stats, name, n
        self.rng = random.Random("legio/%s/%d" % (name, pick_seed))
        setup = lsetup.LegioSetup(players=n)
        if seed is not None:
            setup.seed = seed
        if round_limit is not None:
            setup.round_limit = round_limit
        # Spectators watch live here: this client's spectator follows the
        # game in step with the seats (the game's default delays them).
        r = stub.CreateGame(svc.CreateGameRequest(
            game_type=GAME_TYPE, game_setup=packed(setup), spectator_policy=tt.SPECTATOR_POLICY_PUBLIC))
        g = r.game
        self.id, self.creator = g.game_id, r.creator_token
        check(g.game_type == GAME_TYPE and g.kind == tt.GAME_KIND_LEGIO, "game type", g.game_type, g.kind)
        check(len(g.seats) == n, "seat count", len(g.seats), n)
        check(g.status == tt.GAME_STATUS_OPEN and g.seq == 0, "a new game is open at seq 0", g.status, g.seq)
        check(g.seed_chosen == (seed is not None), "seed_chosen", g.seed_chosen)
        # A live game whose seats hold secrets: its creator is a rival too.
        check(not g.HasField("seed"), "the creator of a live legio game got its seed", self.id)
        cfg = unpack(g.game_config, lsetup.LegioConfig, CONFIG_URL, "game_config")
        check(cfg.players == n, "config players", cfg.players)
        # Unset, the round limit is the server's default for new games.
        check(cfg.round_limit > 0 and round_limit in (None, cfg.round_limit), "config round_limit",
              cfg.round_limit, round_limit)
        self.round_limit = cfg.round_limit
        self.tokens = []
        for s in range(n):
            c = stub.ClaimSeat(svc.ClaimSeatRequest(game_id=self.id, seat=s, claimant=tt.CLAIMANT_HUMAN))
            check(len(c.token) == 32 and c.token not in self.tokens, "seat token", s)
            self.tokens.append(c.token)
        check(c.game.status == tt.GAME_STATUS_PLAYING, "every seat claimed, the game is not PLAYING", c.game.status)
        self.chosen = []  # (seat, option id) per seq from 1

    def creds(self, seat):
        return tt.SeatCredentials(seat=seat, token=self.tokens[seat])

    # ------------------------------------------------------------ checks

    def check_view(self, gs, viewer, where):
        """One viewer's GameState; returns its unpacked LegioState."""
        n, cat = self.n, self.cat
        ctx = (self.name, where, "viewer %s" % viewer)
        self.stats.views += 1
        check(gs.game_id == self.id and gs.game_type == GAME_TYPE, "game id / type", *ctx)
        check(gs.schema_version == SCHEMA_VERSION, "schema_version", gs.schema_version, *ctx)
        check(gs.HasField("game_state"), "no typed game_state", *ctx)
        x = unpack(gs.game_state, ls.LegioState, STATE_URL, *ctx)
        if viewer is None:
            check(not gs.HasField("viewer_seat") and not x.HasField("viewer_seat"),
                  "spectator with a viewer seat", *ctx)
            check(not x.HasField("secrets"), "a spectator's state holds a private part", *ctx)
            check(not gs.can_undo, "a spectator may undo", *ctx)
        else:
            check(gs.HasField("viewer_seat") and gs.viewer_seat == viewer, "GameState.viewer_seat", *ctx)
            check(x.HasField("viewer_seat") and x.viewer_seat == viewer, "LegioState.viewer_seat", *ctx)
            check(x.HasField("secrets") and x.secrets.seat == viewer,
                  "a seat's private part is missing or not its own", x.secrets.seat, *ctx)
        check(x.config.players == n and x.config.round_limit == self.round_limit, "config", x.config, *ctx)
        check(len(x.ships) == n and [s.seat for s in x.ships] == list(range(n)), "ships in seat order", *ctx)
        c = x.counts
        for field in ("discarded", "hands", "objectives", "offers"):
            check(len(getattr(c, field)) == n, "counts.%s has not one entry per seat" % field, *ctx)
        if x.HasField("secrets"):
            p, s = x.secrets, viewer
            check(len(p.hand) == c.hands[s], "hand size against counts.hands", len(p.hand), c.hands[s], *ctx)
            check(len(p.objectives) == c.objectives[s], "objectives against counts", *ctx)
            check(len(p.offer) == c.offers[s], "offer against counts.offers", *ctx)
            check(len(p.discarded) == c.discarded[s], "discarded against counts.discarded", *ctx)
            for card in list(p.hand) + list(p.discarded):
                cat.has("exploration", card, *ctx)
            for o in list(p.objectives) + list(p.offer):
                cat.has("objective", o, *ctx)
            for f in ("contact_a2", "contact_b"):
                if p.HasField(f):
                    cat.has("extrasolar", getattr(p, f), *ctx)
            if p.HasField("pile_x"):
                check(s in x.x_seen_by, "an X pile for a seat that never entered Sector X", *ctx)
            check(len(set(p.hand)) == len(p.hand), "a card twice in a hand", *ctx)
        for sh in x.ships:
            check(sh.sector <= 5 and sh.profile <= 3, "ship sector / profile", sh, *ctx)
            for o in sh.revealed_objectives:
                cat.has("objective", o, *ctx)
            for t in list(sh.trophies) + list(sh.x_cards):
                cat.has("extrasolar", t, *ctx)
        for pl in x.planets:
            check(pl.token <= 4 and pl.sector <= 4 and pl.discoverer < n, "active planet", pl, *ctx)
            cat.has("extrasolar", pl.card, *ctx)
        for card in x.discard_up:
            cat.has("exploration", card, *ctx)

        d = gs.decision
        over = gs.HasField("outcome")
        check((d.kind == "game_over") == over, "decision kind and outcome disagree", d.kind, *ctx)
        check(x.HasField("outcome") == over, "LegioState.outcome and the outcome disagree", *ctx)
        if over:
            check(x.step.kind == ls.STEP_KIND_OVER and not d.deciders and not d.options,
                  "a finished game's decision", *ctx)
        else:
            check(len(d.deciders) >= 1 and all(s < n for s in d.deciders), "deciders", list(d.deciders), *ctx)
            kind = ls.StepKind.Name(x.step.kind)[len("STEP_KIND_"):].lower()
            check(kind == d.kind, "the step and the decision disagree", kind, d.kind, *ctx)
            if x.step.HasField("seat"):
                check(list(d.deciders) == [x.step.seat], "Step.seat is not the decider", *ctx)
            self.stats.decision_kinds[d.kind] += viewer is None
        mine = viewer is not None and viewer in d.deciders
        # Options go only to the deciding seat.
        check(bool(d.options) == mine, "options %s" % ("missing for the decider" if mine else "sent to a non-decider"),
              d.kind, len(d.options), *ctx)
        for o in d.options:
            check(list(o.seats) == [viewer], "an option's seats are not the decider alone", o.id, *ctx)
            ch = unpack(o.detail, lc.LegioChoice, CHOICE_URL, o.id, *ctx)
            which = ch.WhichOneof("choice")
            check(which is not None, "LegioChoice with no field set", o.id, *ctx)
            check(o.id.split(":")[0] == which, "option id and typed choice disagree", o.id, which, *ctx)
            check(o.label, "option without a label", o.id, *ctx)
            if which in ("explore", "discard"):
                check(getattr(ch, which) in x.secrets.hand, "a card option not from the decider's hand", o.id, *ctx)
        return x

    def check_table(self, views, spect, where):
        """Every viewer's state at one seq: the same public table, each
        private part only its seat's, no card in two seats' hands."""
        ctx = (self.name, where)
        pub = public_part(spect[1])
        for s, (gs, x) in enumerate(views):
            check(gs.seq == spect[0].seq and gs.state_hash == spect[0].state_hash, "seq / state hash differ", s, *ctx)
            check(public_part(x) == pub, "seat %d sees another public table than the spectator" % s, *ctx)
            d, sd = gs.decision, spect[0].decision
            check((d.kind, list(d.deciders), d.prompt) == (sd.kind, list(sd.deciders), sd.prompt),
                  "seat %d sees another decision" % s, *ctx)
            check(gs.outcome == spect[0].outcome, "seat %d sees another outcome" % s, *ctx)
        hands = [set(x.secrets.hand) | set(x.secrets.discarded) for _, x in views]
        objs = [set(x.secrets.objectives) | set(x.secrets.offer) for _, x in views]
        revealed = set(o for sh in spect[1].ships for o in sh.revealed_objectives)
        for a in range(self.n):
            check(not hands[a] & set(spect[1].discard_up), "a card both in a hand and face up", a, *ctx)
            check(not objs[a] & revealed, "a kept objective is also revealed", a, *ctx)
            for b in range(a + 1, self.n):
                check(not hands[a] & hands[b], "seats %d and %d hold the same card" % (a, b), *ctx)
                check(not objs[a] & objs[b], "seats %d and %d hold the same objective" % (a, b), *ctx)

    def check_events(self, events, where):
        kinds = []
        for e in events:
            check(e.summary, "event without a summary", e.kind, where)
            ev = unpack(e.detail, le.LegioEvent, EVENT_URL, e.kind, where)
            which = ev.WhichOneof("event")
            check(which is not None, "LegioEvent with no field set", e.kind, where)
            check(which == e.kind, "event kind and typed field disagree", e.kind, which, where)
            kinds.append(which)
        return kinds

    def check_history(self, seq, over):
        """GetHistory without credentials, and with the creator token: no
        option id and no seed while the game is live."""
        self.stats.histories += 1
        for token in ("", self.creator):
            h = self.stub.GetHistory(svc.GetHistoryRequest(game_id=self.id, creator_token=token))
            check(len(h.entries) == seq and [e.seq for e in h.entries] == list(range(1, seq + 1)),
                  "history length", len(h.entries), seq, self.name)
            check([e.seat for e in h.entries] == [s for s, _ in self.chosen], "history seats", self.name)
            check(all(e.kind == tt.ENTRY_KIND_CHOICE for e in h.entries), "history kinds", self.name)
            if over:
                check([e.option_id for e in h.entries] == [i for _, i in self.chosen],
                      "a finished game's history does not show the ids chosen", self.name)
                check(h.game.HasField("seed"), "a finished game's history has no seed", self.name)
            else:
                check(all(e.option_id == "" for e in h.entries),
                      "GetHistory of a live legio game shows an option id",
                      "creator" if token else "stranger", self.name)
                check(not h.game.HasField("seed"), "GetHistory of a live legio game shows the seed",
                      "creator" if token else "stranger", self.name)

    def check_refusals(self, gs, decider, x_decider):
        """A seat outside the deciders is refused with the same words
        whatever it sends: the decider's option, a card of the decider's
        hand, garbage."""
        others = [s for s in range(self.n) if s not in gs.decision.deciders]
        if not others:
            return
        seat = self.rng.choice(others)
        ids = [self.rng.choice(gs.decision.options).id, "no-such-option!"]
        if x_decider.secrets.hand:
            ids.append("discard:" + self.cat.card_id("exploration", x_decider.secrets.hand[0]))
        seen = set()
        for oid in ids:
            code, details = rpc_error(self.stub.SubmitChoice, svc.SubmitChoiceRequest(
                game_id=self.id, credentials=self.creds(seat), expected_seq=gs.seq, option_id=oid))
            check(code == grpc.StatusCode.PERMISSION_DENIED, "a non-decider's choice", code, oid, self.name)
            check(oid not in details, "a refusal repeats the id sent", details)
            seen.add(details)
        check(len(seen) == 1, "a non-decider's refusals differ with the id sent", seen, self.name)
        self.stats.refusals += len(ids)

    # -------------------------------------------------------------- play

    def pick(self, options):
        weights = []
        for o in options:
            ch = lc.LegioChoice()
            o.detail.Unpack(ch)
            which = ch.WhichOneof("choice")
            w = WEIGHTS.get(which, 5)
            if which == "draw":
                w = 1 + 4 * ch.draw
            elif which == "spend":
                w = 1 + ch.spend.points + ch.spend.adventurers
            weights.append(w)
        return self.rng.choices(list(options), weights)[0]

    def play(self):
        stub, n = self.stub, self.n
        followers = [Follower(stub, self.id, s, self.tokens[s]) for s in range(n)]
        spectator = Follower(stub, self.id, None, None)
        everyone = followers + [spectator]
        for f in everyone:
            f.start()
        try:
            return self._play(followers, spectator)
        finally:
            for f in everyone:
                f.call.cancel()

    def _play(self, followers, spectator):
        stub, n = self.stub, self.n
        seq, events_seen = 0, 0
        # The opening snapshots.
        msgs = [f.next("snapshot") for f in followers]
        smsg = spectator.next("snapshot")
        for m in msgs + [smsg]:
            check(m.snapshot and m.seq == 0 and not m.HasField("entry") and not m.events, "opening snapshot", self.name)
        last_id = None
        while True:
            where = "seq %d" % seq
            views = [(m.state, self.check_view(m.state, s, where)) for s, m in enumerate(msgs)]
            spect = (smsg.state, self.check_view(smsg.state, None, where))
            self.check_table(views, spect, where)
            if seq > 0:
                ev = [list(m.events) for m in msgs + [smsg]]
                check(all(e == ev[0] for e in ev), "viewers got different events", where, self.name)
                for m in msgs + [smsg]:
                    e = m.entry
                    check(not m.snapshot and e.seq == seq and e.kind == tt.ENTRY_KIND_CHOICE
                          and e.seat == self.chosen[-1][0], "stream entry", e, where, self.name)
                over = spect[0].HasField("outcome")
                for s, m in enumerate(msgs):
                    if s == self.chosen[-1][0]:
                        check(m.entry.option_id == last_id, "the chooser's own entry lacks its id", where, self.name)
                    elif not over:
                        check(m.entry.option_id == "", "seat %d's stream shows another seat's option id" % s,
                              where, self.name)
                    else:
                        check(m.entry.option_id in ("", last_id), "a wrong option id in a stream", where, self.name)
                    # Undo is only ever for the seat whose choice was last.
                    check(not m.state.can_undo or s == self.chosen[-1][0], "can_undo for a seat that did not choose",
                          s, where, self.name)
                if not over:
                    check(smsg.entry.option_id == "", "a spectator's stream shows an option id", where, self.name)
                for k in self.check_events(smsg.events, where):
                    self.stats.event_kinds[k] += 1
                events_seen += len(smsg.events)
            gs0 = spect[0]
            if gs0.HasField("outcome"):
                break
            check(seq < STEP_CAP, "the game does not end within %d choices" % STEP_CAP, self.name)
            if seq % HISTORY_EVERY == 0:
                self.check_history(seq, False)
            decider = gs0.decision.deciders[0]
            gs, x = views[decider]
            if seq % REFUSAL_EVERY == 1:
                self.check_refusals(gs, decider, x)
            if seq % 97 == 5:
                # GetView agrees with the streams.
                for s in range(n):
                    v = stub.GetView(svc.GetViewRequest(game_id=self.id, credentials=self.creds(s)))
                    check(v.state == views[s][0], "GetView and the stream differ", s, where, self.name)
                v = stub.GetView(svc.GetViewRequest(game_id=self.id))
                check(v.state == gs0, "a spectator's GetView and stream differ", where, self.name)
            o = self.pick(gs.decision.options)
            ch = lc.LegioChoice()
            o.detail.Unpack(ch)
            self.stats.choice_kinds[ch.WhichOneof("choice")] += 1
            r = stub.SubmitChoice(svc.SubmitChoiceRequest(
                game_id=self.id, credentials=self.creds(decider), expected_seq=seq, option_id=o.id))
            seq += 1
            check(r.seq == seq and r.state.seq == seq, "SubmitChoice seq", r.seq, seq, self.name)
            self.chosen.append((decider, o.id))
            last_id = o.id
            msgs = [f.next(where) for f in followers]
            smsg = spectator.next(where)
            check(list(r.events) == list(smsg.events), "SubmitChoice's events are not the stream's", where)
            check(r.state == msgs[decider].state, "SubmitChoice's state is not the decider's stream state", where)
            self.stats.steps += 1
        # The streams end right after the outcome.
        for f in followers + [spectator]:
            try:
                m = f.q.get(timeout=STREAM_WAIT_SECONDS)
            except queue.Empty:
                raise Failure("a stream did not end after the outcome", self.name)
            check(m is None and f.error is None, "a stream went on after the outcome", self.name, f.error)
        self.stats.events += events_seen
        return seq, spect

    def check_outcome(self, seq, spect):
        gs, x = spect
        o, lo = gs.outcome, x.outcome
        ctx = (self.name, self.id)
        check(o.kind == tt.OUTCOME_KIND_RANKED and not o.won, "a legio outcome is RANKED and not `won`", o, *ctx)
        check(len(o.scores) == self.n, "one score per seat", list(o.scores), *ctx)
        check(o.cause, "outcome without a cause", *ctx)
        if o.truncated:
            check(not o.ranking and not o.winners, "a truncated game has a ranking or winners", o, *ctx)
            check(o.cause == "round_limit" and o.round == self.round_limit, "truncated by what", o.cause, o.round, *ctx)
        else:
            check(sorted(o.ranking) == list(range(self.n)), "the ranking is not every seat once", list(o.ranking), *ctx)
            check(o.cause != "round_limit", "a round_limit end not truncated", *ctx)
        check(list(o.winners) == sorted(set(o.winners)) and all(w < self.n for w in o.winners),
              "winners not in seat order", list(o.winners), *ctx)
        if o.winners:
            check(o.ranking[0] in o.winners and set(o.ranking[:len(o.winners)]) == set(o.winners),
                  "the winners are not the top of the ranking", *ctx)
        check((list(lo.scores), list(lo.ranking), list(lo.winners), lo.cause, lo.round, lo.truncated)
              == (list(o.scores), list(o.ranking), list(o.winners), o.cause, o.round, o.truncated),
              "LegioOutcome and Outcome disagree", lo, o, *ctx)
        check(len(lo.px) == self.n and list(lo.px) == [s.px for s in x.ships], "LegioOutcome.px", *ctx)
        check(list(o.scores) == [s.pc for s in x.ships], "scores are not the ships' PC", *ctx)
        self.check_history(seq, True)
        v = self.stub.GetView(svc.GetViewRequest(game_id=self.id))
        check(v.game.status == tt.GAME_STATUS_FINISHED and v.game.HasField("seed") and v.game.ended_unix_ms > 0,
              "a finished game's summary", v.game.status, *ctx)
        # Over: a choice is refused, and every seat's stream now shows every id.
        code, _ = rpc_error(self.stub.SubmitChoice, svc.SubmitChoiceRequest(
            game_id=self.id, credentials=self.creds(0), expected_seq=seq, option_id="end_turn"))
        check(code == grpc.StatusCode.FAILED_PRECONDITION, "a choice after the end", code, *ctx)
        ids = [m.entry.option_id for m in self.stub.StreamGame(svc.StreamGameRequest(game_id=self.id, from_seq=0))
               if not m.snapshot]
        want = [i for _, i in self.chosen]
        check(len(ids) == len(want) and ids[-1] == want[-1], "a finished game's stream", *ctx)
        check(ids == want, "a finished game's replayed stream shows every option id",
              "%d of %d ids empty" % (sum(1 for i in ids if not i), len(ids)), *ctx)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--server", required=True, help="host:port of xodus-server")
    ap.add_argument("--seed", type=int, default=2028, help="seed of the games and of the picks")
    ap.add_argument("--games", default="2,3,4", help="seat counts of the full games, comma-separated")
    ap.add_argument("--strict", action="store_true", help="known deviations fail the run")
    args = ap.parse_args()

    t0 = time.monotonic()
    chan = channel(args.server)
    wait_serving(chan)
    stub = svc_grpc.GameServiceStub(chan)
    cat = Catalog(stub.GetCatalog(svc.GetCatalogRequest(game_type=GAME_TYPE)))
    stats = Stats(args.strict)

    # Bad setups are refused.
    for bad in (lsetup.LegioSetup(players=1), lsetup.LegioSetup(players=5),
                lsetup.LegioSetup(players=2, round_limit=0), lsetup.LegioSetup(players=2, round_limit=201)):
        code, _ = rpc_error(stub.CreateGame, svc.CreateGameRequest(game_type=GAME_TYPE, game_setup=packed(bad)))
        check(code == grpc.StatusCode.INVALID_ARGUMENT, "a bad LegioSetup", bad, code)

    # Whole games: the first one on a seed the server draws (nobody may know
    # it), the others on chosen seeds (replayable); one more cut short by a
    # small round limit, which must end truncated.
    specs = []
    for i, n in enumerate(int(s) for s in args.games.split(",") if s):
        check(2 <= n <= 4, "--games takes seat counts 2 to 4", n)
        specs.append(("legio-%d" % n, n, None if i == 0 else args.seed + i, None))
    specs.append(("legio-2-cut", 2, args.seed + 99, 2))
    results = []
    for name, n, seed, limit in specs:
        t = time.monotonic()
        table = Table(stub, cat, stats, name, n, seed, limit, args.seed)
        seq, spect = table.play()
        table.check_outcome(seq, spect)
        stats.games += 1
        results.append((table, seq, spect[0].outcome, time.monotonic() - t))

    for table, seq, o, secs in results:
        print("  %-12s %s  %d seats  %4d choices  round %2d  %-13s scores %-14s ranking %-12s winners %-6s %s %.2fs"
              % (table.name, table.id, table.n, seq, o.round, o.cause, list(o.scores), list(o.ranking),
                 list(o.winners), "truncated" if o.truncated else "", secs))
    print("python client (legio): %d games played to the end, %d choices, %d views and %d events checked, "
          "%d refusals, %d histories, %.1f s"
          % (stats.games, stats.steps, stats.views, stats.events, stats.refusals, stats.histories,
             time.monotonic() - t0))
    print("  legio events: %s" % dict(sorted(stats.event_kinds.items())))
    print("  legio decisions: %s" % dict(sorted(stats.decision_kinds.items())))
    print("  legio choices: %s" % dict(sorted(stats.choice_kinds.items())))
    if stats.deviations:
        print("WARNING: %d promises (the .proto comments or the host's secrecy rules) the server does not keep"
              " (known; --strict fails on them):" % len(stats.deviations))
        for key, (count, example) in stats.deviations.items():
            print("  - %s: %d times, e.g. %s" % (KNOWN_DEVIATIONS[key], count, example))


if __name__ == "__main__":
    try:
        main()
    except Failure as err:
        print("FAIL: %s" % err, file=sys.stderr)
        sys.exit(1)
    except grpc.RpcError as err:
        print("FAIL: unexpected RPC error: %s %s" % (err.code(), err.details()), file=sys.stderr)
        sys.exit(1)
