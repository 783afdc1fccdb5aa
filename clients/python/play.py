#!/usr/bin/env python3
"""Plays full games of X-ODUS against a running server, as a third-party
front-end would: with code generated from the .proto files alone, reading
only the typed messages (tabletop.v1 and xodus.v1). JSON fields are never
read for play or drawing; `payload_json` is only compared with the typed
`detail` it must agree with.

After every state it receives it checks what the .proto comments promise.
A broken promise stops the run with a non-zero exit. A few promises the
server is known not to keep yet are listed in KNOWN_DEVIATIONS: they are
checked and reported as warnings (or failures with --strict).

Usage: play.py --server 127.0.0.1:PORT [--extra-games N] [--seed S] [--strict]
(run.sh generates the code, starts a server and calls it.)
"""

import argparse
import collections
import json
import queue
import random
import sys
import threading
import time

from common import (  # noqa: E402 (common puts the generated code on the path)
    SCHEMA_VERSION, STREAM_WAIT_SECONDS, TYPE_PREFIX, Failure, channel, check, code_of, wait_serving)

import grpc  # noqa: E402

from tabletop.v1 import game_pb2 as tt  # noqa: E402
from tabletop.v1 import service_pb2 as svc  # noqa: E402
from tabletop.v1 import service_pb2_grpc as svc_grpc  # noqa: E402
from xodus.v1 import choice_pb2, events_pb2, setup_pb2  # noqa: E402
from xodus.v1 import state_pb2 as xs  # noqa: E402

GAME_TYPE = "xodus"
STEP_CAP = 3000  # choices per game before the run fails as "does not end"

# The type URLs game.proto and service.proto document for the packed messages.
STATE_URL = TYPE_PREFIX + "xodus.v1.XodusState"

# Hex directions, state.proto `Hex`: 0 = E, 1 = NE, 2 = NW, 3 = W, 4 = SW, 5 = SE.
DIRECTIONS = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]

# Decision.kind values game.proto lists for X-ODUS.
DOCUMENTED_DECISION_KINDS = {
    "next_player", "action", "fleet_invite", "orientation", "rush_step",
    "detection", "combat_command", "manoeuvre", "maintenance", "key_carrier",
    "exploration", "reveal_system", "pacify_system", "attack_effects",
    "module_receiver", "scrap_share", "trade", "module_discard", "mod_choice",
    "game_over",
}
# Outcome.cause values game.proto and events.proto list for X-ODUS.
DOCUMENTED_CAUSES = {"rift_sealed", "corruption_risen", "all_ships_destroyed"}
# XodusChoice actions whose `hex` is "the system it aims at" (choice.proto).
HEX_ACTIONS = {"probe", "blind_jump", "jump", "rush_to", "reveal_at", "pacify_at"}
SEAT_NAMES = ["warship", "battlecruiser", "explorer", "pirate_ship",
              "drone_specialist", "proto_ship"]
ALLY_NAMES = ["cartographer", "specialised_engineer", "mercenary", "smuggler"]
DIFFICULTIES = {"casual": xs.DIFFICULTY_CASUAL, "hardened": xs.DIFFICULTY_HARDENED,
                "heroic": xs.DIFFICULTY_HEROIC}
PHASES = {"action": xs.PHASE_ACTION, "corruption": xs.PHASE_CORRUPTION,
          "end": xs.PHASE_END, "over": xs.PHASE_OVER}

# Promises of the .proto comments that the server does not keep at the time
# of writing. Each is still checked; a breach is a warning unless --strict.
# Remove an entry once the server (or the comment) is fixed.
KNOWN_DEVIATIONS = {
}


class Run:
    """Counters and the deviations seen, for the summary."""

    def __init__(self, strict):
        self.strict = strict
        self.deviations = collections.OrderedDict()  # key -> (count, first example)
        self.states = 0
        self.choices = 0
        self.events = 0
        self.typed_events = collections.Counter()
        self.untyped_events = collections.Counter()
        self.hex_targets = collections.Counter()  # (action, "revealed"/"unrevealed")
        self.decision_kinds = collections.Counter()
        self.actions = collections.Counter()  # XodusChoice.action of every option offered
        self.lock = threading.Lock()

    def deviation(self, key, ok, example):
        if ok:
            return
        check(key in KNOWN_DEVIATIONS, "unknown deviation key " + key)
        if self.strict:
            raise Failure(KNOWN_DEVIATIONS[key] + ": " + example)
        with self.lock:
            count, first = self.deviations.get(key, (0, example))
            self.deviations[key] = (count + 1, first)


# ---------------------------------------------------------------- catalog


class Catalog:
    def __init__(self, resp):
        check(resp.game_type == GAME_TYPE, "catalog game_type", resp.game_type)
        self.by_index = collections.defaultdict(dict)
        self.by_id = collections.defaultdict(dict)
        for e in resp.entries:
            check(e.category and e.id and e.name, "catalog entry without category, id or name", e)
            check(e.index not in self.by_index[e.category], "duplicate catalog index", e.category, e.index)
            check(e.id not in self.by_id[e.category], "duplicate catalog id", e.category, e.id)
            json.loads(e.details_json or "null")  # documented as JSON
            self.by_index[e.category][e.index] = e
            self.by_id[e.category][e.id] = e.index
        order = [(e.category, e.index) for e in resp.entries]
        cats = []
        for c, _ in order:
            if not cats or cats[-1] != c:
                cats.append(c)
        check(len(cats) == len(set(cats)), "catalog not grouped by category", cats)
        for c in cats:
            idx = [i for cc, i in order if cc == c]
            check(idx == sorted(idx), "catalog category not in index order", c)
        for c in ("tile", "module", "mod", "mod_effect", "exploration", "enemy",
                  "avatar", "damaged", "signal", "ally", "ship"):
            check(self.by_index[c], "catalog has no entries of category " + c)
        self.size = len(resp.entries)

    def has(self, category, index, *ctx):
        check(index in self.by_index[category],
              "%s %d is not in the catalog" % (category, index), *ctx)

    def has_id(self, category, ident, *ctx):
        check(ident in self.by_id[category],
              "%s id %r is not in the catalog" % (category, ident), *ctx)
        return self.by_id[category][ident]


# ----------------------------------------------------------------- states


def hx(h):
    return (h.q, h.r)


def neighbours(h):
    return [(h[0] + dq, h[1] + dr) for dq, dr in DIRECTIONS]


class Game:
    """One table: its setup, tokens, and what it expects of every state."""

    def __init__(self, name, setup, seats, creator_token, summary):
        self.name = name
        self.setup = setup  # xodus.v1.XodusSetup or None (default setup)
        self.n = seats
        self.creator_token = creator_token
        self.id = summary.game_id
        self.summary = summary
        self.tokens = {}
        self.submitted = {}  # seq -> (entry kind, seat, option id)
        self.undos = 0  # undos still to try in this game
        self.undone = 0
        self.tried_non_decider = False
        self.hashes = {}  # seq -> state_hash seen by a seat
        self.rng = None

    def creds(self, seat):
        return tt.SeatCredentials(seat=seat, token=self.tokens[seat])


def check_state(run, cat, game, gs, viewer, where):
    """Checks one tabletop.v1.GameState; returns its xodus.v1.XodusState."""
    ctx = (game.name, game.id, "seq %d" % gs.seq, where)
    run.states += 1
    check(gs.game_id == game.id, "state of another game", *ctx)
    check(gs.game_type == GAME_TYPE, "game_type %r" % gs.game_type, *ctx)
    check(gs.schema_version == SCHEMA_VERSION, "schema_version %d" % gs.schema_version, *ctx)
    check(gs.WhichOneof("detail") == "game_state", "detail is %r, not game_state" % gs.WhichOneof("detail"), *ctx)
    check(gs.game_state.type_url == STATE_URL, "GameState.game_state.type_url = %r" % gs.game_state.type_url, *ctx)
    check(gs.game_state.Is(xs.XodusState.DESCRIPTOR), "game_state is not a XodusState: " + gs.game_state.type_url, *ctx)
    x = xs.XodusState()
    check(gs.game_state.Unpack(x), "XodusState does not unpack", *ctx)

    # Viewer.
    if viewer is None:
        check(not gs.HasField("viewer_seat"), "spectator state has viewer_seat", *ctx)
        check(not gs.can_undo, "spectator state with can_undo", *ctx)
    else:
        check(gs.HasField("viewer_seat") and gs.viewer_seat == viewer,
              "viewer_seat is not %d" % viewer, *ctx)

    over = gs.HasField("outcome")
    n = game.n
    seats = set(range(n))

    # Decision.
    d = gs.decision
    run.decision_kinds[d.kind] += 1
    # game.proto: "New kinds may be added": an unlisted kind is counted, not refused.
    if d.kind not in DOCUMENTED_DECISION_KINDS:
        run.untyped_events["undocumented decision kind " + d.kind] += 1
    if over:
        check(d.kind == "game_over" and not d.options, "game over but a decision is pending", *ctx)
    else:
        check(d.kind and d.kind != "game_over", "live game without a decision kind", *ctx)
        check(d.options, "live game with no options", *ctx)
        check(d.deciders and set(d.deciders) <= seats, "deciders %s" % list(d.deciders), *ctx)
        check(d.prompt, "empty prompt", *ctx)
    ids = [o.id for o in d.options]
    check(len(ids) == len(set(ids)), "duplicate option ids", *ctx)

    # Config (the setup we sent, when we sent one).
    cfg = x.config
    check(len(cfg.ships) == n and len(x.ships) == n, "ship count", *ctx)
    check(len(set(cfg.ships)) == n, "a ship twice in the config", *ctx)
    check(len(cfg.allies) == 2 and len(set(cfg.allies)) == 2, "not two distinct Allies", *ctx)
    roles = [s.role for s in game.summary.seats]
    check([SEAT_NAMES.index(r) + 1 for r in roles] == list(cfg.ships), "config ships vs seat roles", *ctx)
    if game.setup is not None:
        if game.setup.ships:
            check([SEAT_NAMES[k - 1] for k in cfg.ships] == list(game.setup.ships), "config ships vs setup", *ctx)
        check(cfg.difficulty == DIFFICULTIES[game.setup.difficulty or "casual"], "difficulty vs setup", *ctx)
        if game.setup.allies:
            check([ALLY_NAMES[k - 1] for k in cfg.allies] == list(game.setup.allies), "allies vs setup", *ctx)
        check(cfg.nightmare == game.setup.nightmare, "nightmare vs setup", *ctx)

    # Phase and round.
    check(x.round >= 1, "round %d" % x.round, *ctx)
    check(PHASES.get(x.phase) == x.phase_kind, "phase %r vs phase_kind %d" % (x.phase, x.phase_kind), *ctx)
    check((x.phase == "over") == over, "phase %r while outcome set = %s" % (x.phase, over), *ctx)
    step = x.step.WhichOneof("step")
    check(step is not None, "no step", *ctx)
    check((step == "over") == over, "step %r while outcome set = %s" % (step, over), *ctx)

    # Board.
    board = {}
    for t in x.tiles:
        h = hx(t.hex)
        check(h not in board, "two tiles at %s" % (h,), *ctx)
        board[h] = t
        cat.has("tile", t.tile, *ctx)
        check(t.rotation <= 5, "rotation %d" % t.rotation, *ctx)
        check(t.lanes < 64, "lanes %d" % t.lanes, *ctx)
        check(t.kind != xs.SYSTEM_KIND_UNSPECIFIED, "tile kind unset", *ctx)
        if t.HasField("key_marker"):
            check(1 <= t.key_marker <= 4, "key_marker %d" % t.key_marker, *ctx)
        for k in t.keys_activated:
            check(1 <= k <= 4, "activated key %d" % k, *ctx)
        check(not t.keys_activated or t.kind == xs.SYSTEM_KIND_MAIN_RIFT,
              "keys activated off the Main Rift", *ctx)
    check((0, 0) in board, "no Starting System at (0, 0)", *ctx)
    on_board = [t.tile for t in x.tiles]
    check(len(on_board) == len(set(on_board)), "a tile twice on the board", *ctx)
    for t in x.removed_tiles:
        cat.has("tile", t, *ctx)
        check(t not in on_board, "a removed tile on the board", *ctx)
    check(sum(1 for p in x.piles if p.bottom) <= 1, "more than one bottom pile", *ctx)

    def revealed(h, what):
        check(hx(h) in board, "%s at %s, not a revealed system" % (what, hx(h)), *ctx)

    # Ships.
    carried = []
    for i, s in enumerate(x.ships):
        sc = ctx + ("ship %d" % i,)
        check(s.seat == i, "ships not by seat", *sc)
        check(s.kind == cfg.ships[i], "ship kind vs config", *sc)
        revealed(s.hex, "ship %d" % i)
        check(0 <= s.health <= s.max_health, "health %d of %d" % (s.health, s.max_health), *sc)
        check(s.energy_used <= s.energy_total, "energy %d used of %d" % (s.energy_used, s.energy_total), *sc)
        check(1 <= s.level <= 6, "level %d" % s.level, *sc)
        for k in s.keys:
            check(1 <= k <= 4, "key %d" % k, *sc)
        carried += list(s.keys)
        for c in s.damaged:
            cat.has("damaged", c, *sc)
        for m in s.modules:
            cat.has("module", m, *sc)
        for m in s.mod_effects:
            cat.has("mod_effect", m, *sc)
        for p in s.powers_used:
            check_power(cat, p, *sc)
    check(len(carried) == len(set(carried)), "a Key carried twice: %s" % carried, *ctx)
    for t in x.tiles:
        if t.HasField("key_marker"):
            check(t.key_marker not in carried, "Key %d both carried and on its marker" % t.key_marker, *ctx)

    # Allies, Enemies, Avatars.
    for a in x.allies:
        check(a.kind in cfg.allies, "an Ally met that is not in the config", *ctx)
        revealed(a.hex, "Ally")
        for m in a.offer:
            cat.has("module", m, *ctx)
    for e in x.enemies:
        cat.has("enemy", e.card, *ctx)
        revealed(e.hex, "Enemy")
        if e.HasField("guards_key"):
            check(1 <= e.guards_key <= 4, "guards_key %d" % e.guards_key, *ctx)
    avatar_cards = []
    for a in x.avatars:
        cat.has("avatar", a.card, *ctx)
        avatar_cards.append(a.card)
        place = a.WhichOneof("place")
        check(place is not None, "Avatar without a place", *ctx)
        if place == "hex":
            revealed(a.hex, "Avatar")
        if place == "gone":
            check(a.gone, "Avatar.gone set to false", *ctx)
    check(len(avatar_cards) == len(set(avatar_cards)), "an Avatar twice", *ctx)

    # Corruption.
    c = x.corruption
    check(c.position <= c.rise, "Corruption at %d past the Rise %d" % (c.position, c.rise), *ctx)
    for h in list(c.retreats_this_round) + list(c.retreats_waiting):
        revealed(h, "a retreat")

    # Signals: one slot per Key.
    keys = [sl.key for sl in x.signals]
    check(len(keys) == len(set(keys)) and all(1 <= k <= 4 for k in keys), "Signal keys %s" % keys, *ctx)
    for sl in x.signals:
        if sl.HasField("card"):
            cat.has("signal", sl.card, *ctx)
        check(not sl.solved or sl.HasField("card"), "a face-down Signal solved", *ctx)

    # Decks.
    dk = x.decks
    check(len(dk.enemy_deck_levels) == 4 and len(dk.enemy_reserve_levels) == 4, "deck levels are not 4 numbers", *ctx)
    check(dk.enemy_deck == sum(dk.enemy_deck_levels),
          "enemy_deck %d != sum of levels %s" % (dk.enemy_deck, list(dk.enemy_deck_levels)), *ctx)
    check(dk.enemy_reserve == sum(dk.enemy_reserve_levels),
          "enemy_reserve %d != sum of levels %s" % (dk.enemy_reserve, list(dk.enemy_reserve_levels)), *ctx)
    check(dk.system_stack == sum(p.remaining for p in x.piles),
          "system_stack %d != tiles in piles %d" % (dk.system_stack, sum(p.remaining for p in x.piles)), *ctx)

    for v in x.enemy_discard:
        cat.has("enemy", v, *ctx)
    for v in x.damaged_discard:
        cat.has("damaged", v, *ctx)
    for v in x.exploration_discard:
        cat.has("exploration", v, *ctx)
    for v in x.module_discard:
        cat.has("module", v, *ctx)
    for v in list(x.active) + list(x.exploration_xp):
        check(v in seats, "seat %d" % v, *ctx)
    if x.HasField("fight"):
        revealed(x.fight.hex, "the fight")
        check(set(x.fight.seats) <= seats, "fight seats", *ctx)

    for st in [x.step] + list(x.queued) + ([x.resume] if x.HasField("resume") else []):
        check_step(cat, x, st, seats, *ctx)

    # Options, typed.
    for o in d.options:
        check_option(run, cat, x, board, o, d, seats, *ctx)
    return x


def check_power(cat, p, *ctx):
    which = p.WhichOneof("source")
    check(which is not None, "PowerSource without a source", *ctx)
    cat.has(which, getattr(p, which), *ctx)


def check_target(x, t, *ctx):
    which = t.WhichOneof("target")
    check(which is not None, "Target without a target", *ctx)
    if which == "enemy":
        check(t.enemy < len(x.enemies), "Target.enemy %d of %d" % (t.enemy, len(x.enemies)), *ctx)
    else:
        check(t.avatar < len(x.avatars), "Target.avatar %d of %d" % (t.avatar, len(x.avatars)), *ctx)


def check_step(cat, x, st, seats, *ctx):
    which = st.WhichOneof("step")
    check(which is not None, "a Step without a step", *ctx)
    s = getattr(st, which)
    if which == "orientation":
        cat.has("tile", s.tile, *ctx)
    elif which == "exploration":
        cat.has("exploration", s.card, *ctx)
    elif which == "give_module":
        cat.has("module", s.card, *ctx)
    elif which == "key_carrier":
        check(1 <= s.key <= 4, "key_carrier key %d" % s.key, *ctx)
    elif which == "manoeuvre":
        check_target(x, s.target, *ctx)
    elif which == "after_roll":
        check_target(x, s.target, *ctx)
        for r in s.rolls:
            check(r.seat in seats, "SeatRoll seat", *ctx)
            for die in r.dice:
                check(die.color != xs.DIE_COLOR_UNSPECIFIED and die.face != xs.DIE_FACE_UNSPECIFIED, "die unset", *ctx)
        for u in s.used:
            check_power(cat, u.source, *ctx)
    elif which == "choose_mod":
        check(s.seat in seats, "choose_mod seat", *ctx)
    elif which == "fleet_invite":
        check(s.invitee in seats, "invitee", *ctx)


def check_option(run, cat, x, board, o, d, seats, *ctx):
    octx = ctx + ("option %s" % o.id,)
    check(o.id and o.label, "option without id or label", *octx)
    check(o.seats and set(o.seats) <= set(d.deciders), "option seats %s not among deciders" % list(o.seats), *octx)
    check(o.HasField("detail"), "option without a typed detail", *octx)
    check(o.detail.type_url == TYPE_PREFIX + "xodus.v1.XodusChoice",
                  "ChoiceOption.detail.type_url = %r" % o.detail.type_url)
    ch = choice_pb2.XodusChoice()
    check(o.detail.Unpack(ch), "detail is not a XodusChoice: " + o.detail.type_url, *octx)
    check(ch.action, "XodusChoice without an action", *octx)
    run.actions[ch.action] += 1
    payload = json.loads(o.payload_json)
    key = payload if isinstance(payload, str) else (list(payload)[0] if isinstance(payload, dict) and len(payload) == 1 else None)
    check(key == ch.action, "action %r is not the key of payload_json %s" % (ch.action, o.payload_json), *octx)
    for f in ("seat", "from_seat", "to_seat", "target_seat", "die_seat"):
        if ch.HasField(f):
            check(getattr(ch, f) in seats, "%s %d" % (f, getattr(ch, f)), *octx)
    check(set(ch.seats) <= seats, "seats", *octx)
    if ch.action in HEX_ACTIONS:
        check(ch.HasField("hex"), "%s without a hex" % ch.action, *octx)
    if ch.HasField("hex"):
        h = hx(ch.hex)
        on = h in board
        check(on or any(nb in board for nb in neighbours(h)),
              "%s aims at %s, neither on nor next to the board" % (ch.action, h), *octx)
        run.hex_targets[(ch.action, "revealed" if on else "unrevealed")] += 1
        # choice.proto: a revealed system for jump, rush_to and pacify_at; an
        # empty space next to the board for probe, blind_jump and reveal_at.
        if ch.action in ("jump", "rush_to", "pacify_at"):
            check(on, "%s aims at %s, which is not a revealed system" % (ch.action, h), *octx)
        if ch.action in ("probe", "blind_jump", "reveal_at"):
            check(not on, "%s aims at %s, which is already revealed" % (ch.action, h), *octx)
    if ch.HasField("rotation"):
        check(ch.rotation <= 5, "rotation %d" % ch.rotation, *octx)
    if ch.HasField("key"):
        check(1 <= ch.key <= 4, "key %d" % ch.key, *octx)
    if ch.HasField("card"):
        cat.has("damaged", ch.card, *octx)
    if ch.HasField("module"):
        cat.has("module", ch.module, *octx)
    if ch.HasField("mod_effect"):
        cat.has("mod_effect", ch.mod_effect, *octx)
    if ch.HasField("source"):
        check_power(cat, ch.source, *octx)
    if ch.HasField("target"):
        check_target(x, ch.target, *octx)
    if ch.action == "defense":
        check(ch.die_color != xs.DIE_COLOR_UNSPECIFIED, "defense without die_color", *octx)
    if ch.action == "use_grant":
        check(ch.grant != xs.GRANT_UNSPECIFIED, "use_grant without a grant", *octx)
    if ch.HasField("die_index") and x.step.WhichOneof("step") == "after_roll":
        owner = ch.die_seat if ch.HasField("die_seat") else ch.seat
        rolls = [r for r in x.step.after_roll.rolls if r.seat == owner]
        check(rolls and ch.die_index < len(rolls[0].dice),
              "die_index %d not a die of ship %d's SeatRoll" % (ch.die_index, owner), *octx)


def check_events(run, cat, game, events, x_after, gs_after, *ctx):
    tiles_after = {hx(t.hex): t.tile for t in x_after.tiles}
    for ev in events:
        run.events += 1
        ectx = ctx + ("event %s" % ev.kind,)
        check(ev.kind and ev.summary, "event without kind or summary", *ectx)
        json.loads(ev.event_json)
        # events.proto: X-ODUS types every event it sends.
        check(ev.HasField("detail"), "event without a typed detail", *ectx)
        check(ev.detail.type_url == TYPE_PREFIX + "xodus.v1.XodusEvent",
                      "Event.detail.type_url = %r" % ev.detail.type_url)
        e = events_pb2.XodusEvent()
        check(ev.detail.Unpack(e), "event detail is not a XodusEvent: " + ev.detail.type_url, *ectx)
        which = e.WhichOneof("event")
        check(which is not None, "XodusEvent with no event set", *ectx)
        check(which == ev.kind, "XodusEvent field %r is not named like the kind" % which, *ectx)
        run.typed_events[which] += 1
        body = getattr(e, which)
        seat_field = body.DESCRIPTOR.fields_by_name.get("seat")
        if seat_field is not None and (not seat_field.has_presence or body.HasField("seat")):
            check(body.seat < game.n, "event seat %d" % body.seat, *ectx)
        if which == "tile_revealed":
            idx = cat.has_id("tile", body.tile_id, *ectx)
            check(tiles_after.get(hx(body.hex)) == idx,
                  "tile %s revealed at %s is not there after the update" % (body.tile_id, hx(body.hex)), *ectx)
            check(body.rotation <= 5, "rotation", *ectx)
        elif which in ("enemy_drawn", "enemy_defeated"):
            cat.has_id("enemy", body.enemy_id, *ectx)
        elif which in ("avatar_arrived", "avatar_moved"):
            cat.has_id("avatar", body.avatar_id, *ectx)
        elif which == "signal_revealed":
            cat.has_id("signal", body.signal_id, *ectx)
            check(1 <= body.key <= 4, "key", *ectx)
        elif which == "dice_rolled":
            for die in body.dice:
                check(die.color != xs.DIE_COLOR_UNSPECIFIED and die.face != xs.DIE_FACE_UNSPECIFIED, "die unset", *ectx)
        elif which == "engaged":
            check(set(body.seats) <= set(range(game.n)), "engaged seats %s" % list(body.seats), *ectx)
        elif which == "game_over":
            check(gs_after.HasField("outcome"), "game_over event but no outcome", *ectx)
            check(body.won == gs_after.outcome.won and body.cause == gs_after.outcome.cause,
                  "game_over event disagrees with the outcome", *ectx)


# ------------------------------------------------------------------- play


class Spectator(threading.Thread):
    """StreamGame from seq 0 without credentials; keeps every message."""

    def __init__(self, stub, game_id):
        super().__init__(daemon=True)
        self.stub = stub
        self.game_id = game_id
        self.messages = []
        self.error = None
        self.call = None
        self.started_evt = threading.Event()

    def run(self):
        try:
            self.call = self.stub.StreamGame(svc.StreamGameRequest(game_id=self.game_id, from_seq=0))
            self.started_evt.set()
            for m in self.call:
                self.messages.append(m)
        except grpc.RpcError as err:
            self.error = err
        except Exception as err:  # noqa: BLE001
            self.error = err
        finally:
            self.started_evt.set()


def create(stub, run, cat, name, setup, expect_seats, by_type=False):
    req = svc.CreateGameRequest()
    if by_type:
        req.game_type = GAME_TYPE
    else:
        req.kind = tt.GAME_KIND_XODUS
    if setup is not None:
        req.game_setup.Pack(setup)
    resp = stub.CreateGame(req)
    g = resp.game
    check(len(resp.creator_token) == 32 and all(ch in "0123456789abcdef" for ch in resp.creator_token.lower()),
          "creator token is not 32 hex characters", name)
    check(g.game_type == GAME_TYPE and g.kind == tt.GAME_KIND_XODUS, "created game type", name)
    check(g.status == tt.GAME_STATUS_OPEN and g.seq == 0, "new game not open at seq 0", name)
    check(len(g.seats) == expect_seats, "%d seats, expected %d" % (len(g.seats), expect_seats), name)
    check(g.HasField("seed"), "CreateGameResponse.game has no seed (the creator's reply)", name)
    if setup is not None and setup.HasField("seed"):
        check(g.seed == setup.seed, "seed is not the setup's", name)
    check(g.HasField("created_at") and g.created_unix_ms > 0, "creation time", name)
    check(not g.HasField("outcome") and not g.HasField("ended_at") and g.ended_unix_ms == 0, "new game has ended", name)
    roles = [s.role for s in g.seats]
    check(all(r in SEAT_NAMES for r in roles) and len(set(roles)) == len(roles), "seat roles %s" % roles, name)
    for i, s in enumerate(g.seats):
        check(s.seat == i and not s.claimed and s.open_to == tt.SEAT_OPEN_TO_HUMAN, "new seat", name, i)
    game = Game(name, setup, len(g.seats), resp.creator_token, g)
    return game


def claim_all(stub, game):
    for i in range(game.n):
        r = stub.ClaimSeat(svc.ClaimSeatRequest(game_id=game.id, seat=i, claimant=tt.CLAIMANT_HUMAN))
        check(len(r.token) == 32, "seat token length", game.name, i)
        check(r.game.seats[i].claimed and r.game.seats[i].claimed_by == tt.CLAIMANT_HUMAN, "seat not claimed", game.name, i)
        check(not r.game.HasField("seed"), "ClaimSeat reply carries the seed of a live game", game.name)
        game.tokens[i] = r.token
    check(r.game.status == tt.GAME_STATUS_PLAYING, "all seats claimed but status %d" % r.game.status, game.name)
    game.summary = r.game
    code = code_of(stub.ClaimSeat, svc.ClaimSeatRequest(game_id=game.id, seat=0, claimant=tt.CLAIMANT_HUMAN))
    check(code == grpc.StatusCode.FAILED_PRECONDITION, "claiming a claimed seat: %s" % code, game.name)
    code = code_of(stub.ClaimSeat, svc.ClaimSeatRequest(game_id=game.id, seat=game.n, claimant=tt.CLAIMANT_HUMAN))
    check(code == grpc.StatusCode.INVALID_ARGUMENT, "claiming seat %d of %d: %s" % (game.n, game.n, code), game.name)


def stranger_checks(stub, run, cat, game):
    """What someone without a seat or the creator token sees of a live game."""
    v = stub.GetView(svc.GetViewRequest(game_id=game.id))
    check_state(run, cat, game, v.state, None, "spectator GetView")
    check(not v.state.HasField("viewer_seat"), "spectator view has viewer_seat", game.name)
    check(not v.game.HasField("seed"), "spectator GetView carries the seed of a live game", game.name)
    listed = [s for s in list_all(stub) if s.game_id == game.id]
    check(len(listed) == 1, "game listed %d times" % len(listed), game.name)
    check(not listed[0].HasField("seed"), "ListGames shows the seed of a live game", game.name)
    check(listed[0].status == tt.GAME_STATUS_PLAYING, "listed status %d" % listed[0].status, game.name)
    h = stub.GetHistory(svc.GetHistoryRequest(game_id=game.id))
    check(not h.game.HasField("seed"), "GetHistory without creator token shows the seed", game.name)
    h = stub.GetHistory(svc.GetHistoryRequest(game_id=game.id, creator_token=game.creator_token))
    check(h.game.HasField("seed") and h.game.seed == game.summary_seed, "GetHistory with creator token: seed", game.name)
    code = code_of(stub.GetHistory, svc.GetHistoryRequest(game_id=game.id, creator_token="0" * 32))
    check(code == grpc.StatusCode.UNAUTHENTICATED, "GetHistory with a wrong creator token: %s" % code, game.name)


def refused_requests(stub, run, cat, game, gs):
    """Documented status codes; a refused request changes nothing."""
    d = gs.decision
    seat = d.deciders[0]
    opt = [o for o in d.options if seat in o.seats][0]

    def submit(**kw):
        base = dict(game_id=game.id, credentials=game.creds(seat), expected_seq=gs.seq, option_id=opt.id)
        base.update(kw)
        return stub.SubmitChoice(svc.SubmitChoiceRequest(**base))

    cases = [
        ("stale expected_seq", dict(expected_seq=gs.seq + 1), {grpc.StatusCode.ABORTED}),
        ("wrong token", dict(credentials=tt.SeatCredentials(seat=seat, token="f" * 32)), {grpc.StatusCode.UNAUTHENTICATED}),
        ("no credentials", dict(credentials=None), {grpc.StatusCode.UNAUTHENTICATED}),
        ("unknown option id", dict(option_id="no_such_option"),
         {grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.INVALID_ARGUMENT}),
        ("seat number out of range", dict(credentials=tt.SeatCredentials(seat=game.n, token="f" * 32)),
         {grpc.StatusCode.INVALID_ARGUMENT}),
    ]
    others = [s for s in range(game.n) if s not in d.deciders]
    if others:
        cases.append(("a seat that does not decide", dict(credentials=game.creds(others[0])),
                      {grpc.StatusCode.PERMISSION_DENIED}))
    for what, kw, codes in cases:
        code = code_of(submit, **kw)
        check(code in codes, "SubmitChoice with %s: %s, expected %s" % (what, code, sorted(c.name for c in codes)), game.name)
    code = code_of(stub.GetView, svc.GetViewRequest(game_id="g-does-not-exist"))
    check(code == grpc.StatusCode.NOT_FOUND, "GetView of an unknown game: %s" % code)
    after = stub.GetView(svc.GetViewRequest(game_id=game.id, credentials=game.creds(seat))).state
    check(after.seq == gs.seq and after.state_hash == gs.state_hash, "a refused request changed the game", game.name)


def list_all(stub):
    out, token = [], ""
    while True:
        r = stub.ListGames(svc.ListGamesRequest(page_token=token))
        out += list(r.games)
        token = r.next_page_token
        if not token:
            return out


# How much more likely the picker takes an option with this action than a
# plain one (1). A seeded random player, nudged to repair, explore and head
# for the Keys, so that games reach more of the rules; it reads only the
# typed state and the typed options.
WEIGHTS = {
    "end_turn": 0.5, "decline": 0.5, "skip_effect": 0.5, "skip_maintenance": 0.5,
    "repair": 3, "remove_damaged": 2, "maintenance": 2,
    "carry_key": 5, "scavenge_keys": 3, "pacify": 2, "explore": 2,
}


def distance(a, b):
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def pick(rng, options, x, seat):
    """A seeded, weighted random pick among the seat's options."""
    ship = x.ships[seat]
    if ship.keys:  # Keys go to the Main Rift
        goals = [hx(t.hex) for t in x.tiles if t.kind == xs.SYSTEM_KIND_MAIN_RIFT]
    else:  # else to the Signal systems whose Key is still there
        goals = [hx(t.hex) for t in x.tiles if t.HasField("key_marker")]
    here = hx(ship.hex)
    weights = []
    for o in options:
        ch = choice_pb2.XodusChoice()
        o.detail.Unpack(ch)
        w = WEIGHTS.get(ch.action, 1.0)
        if goals and ch.action in ("jump", "rush_to") and ch.HasField("hex"):
            before = min(distance(here, g) for g in goals)
            after = min(distance(hx(ch.hex), g) for g in goals)
            w *= 4 if after < before else 1
        weights.append(w)
    return rng.choices(options, weights)[0]


def play(stub, run, cat, game, spectate):
    spec = None
    if spectate:
        spec = Spectator(stub, game.id)
        spec.start()
        spec.started_evt.wait(5)
    seat = 0
    gs = stub.GetView(svc.GetViewRequest(game_id=game.id, credentials=game.creds(seat))).state
    x = check_state(run, cat, game, gs, seat, "GetView")
    check(gs.seq == 0 and not gs.can_undo, "a new game at seq %d / can_undo" % gs.seq, game.name)
    refused_requests(stub, run, cat, game, gs)
    game.hashes[0] = gs.state_hash
    steps = 0
    while not gs.HasField("outcome"):
        steps += 1
        check(steps <= STEP_CAP, "the game did not end within %d choices (round %d, corruption %d/%d)"
              % (STEP_CAP, x.round, x.corruption.position, x.corruption.rise), game.name, game.id)
        d = gs.decision
        seat = game.rng.choice(sorted(d.deciders))
        if gs.viewer_seat != seat:
            prev = gs
            gs = stub.GetView(svc.GetViewRequest(game_id=game.id, credentials=game.creds(seat))).state
            x = check_state(run, cat, game, gs, seat, "GetView")
            check(gs.seq == prev.seq and gs.state_hash == prev.state_hash, "the game moved without us", game.name)
            d = gs.decision
            check((d.kind, list(d.deciders), [o.id for o in d.options])
                  == (prev.decision.kind, list(prev.decision.deciders), [o.id for o in prev.decision.options]),
                  "seats %d and %d see different decisions at seq %d" % (prev.viewer_seat, seat, gs.seq), game.name)
        opts = [o for o in d.options if seat in o.seats]
        check(opts, "decider %d has no option" % seat, game.name, gs.seq)
        others = [s for s in range(game.n) if s not in d.deciders]
        if others and not game.tried_non_decider:
            game.tried_non_decider = True
            code = code_of(stub.SubmitChoice, svc.SubmitChoiceRequest(
                game_id=game.id, credentials=game.creds(others[0]), expected_seq=gs.seq, option_id=opts[0].id))
            check(code == grpc.StatusCode.PERMISSION_DENIED,
                  "SubmitChoice by seat %d, which does not decide: %s" % (others[0], code), game.name, gs.seq)
        o = pick(game.rng, opts, x, seat)
        resp = stub.SubmitChoice(svc.SubmitChoiceRequest(
            game_id=game.id, credentials=game.creds(seat), expected_seq=gs.seq, option_id=o.id))
        run.choices += 1
        check(resp.seq == gs.seq + 1 == resp.state.seq,
              "SubmitChoice at seq %d returned seq %d / state seq %d" % (gs.seq, resp.seq, resp.state.seq), game.name)
        game.submitted[resp.seq] = (tt.ENTRY_KIND_CHOICE, seat, o.id)
        gs = resp.state
        x = check_state(run, cat, game, gs, seat, "SubmitChoice " + o.id)
        check_events(run, cat, game, resp.events, x, gs, game.name, "seq %d" % gs.seq)
        game.hashes[gs.seq] = gs.state_hash
        if gs.can_undo and game.undos > 0 and game.rng.random() < 0.25:
            game.undos -= 1
            gs, x = undo(stub, run, cat, game, gs, seat)
        if steps == 5:
            stranger_checks(stub, run, cat, game)
    check_outcome(stub, run, cat, game, gs, x)
    if spec is not None:
        spec.join(STREAM_WAIT_SECONDS)
        check(not spec.is_alive(), "the spectator stream did not end after the outcome", game.name)
        check_stream(run, cat, game, spec.messages, spec.error, 0, gs.seq, None)
    return steps


class PlaySeat:
    """One seat's Play stream: requests go through a queue (None ends the
    client's side), and each is answered in turn."""

    def __init__(self, stub, game, seat):
        self.requests = queue.Queue()
        self.requests.put(svc.PlayRequest(open=svc.PlayOpen(game_id=game.id, credentials=game.creds(seat))))
        self.answers = stub.Play(iter(self.requests.get, None))
        first = next(self.answers)
        check(first.WhichOneof("kind") == "opened", "Play answered open with %s" % first.WhichOneof("kind"),
              game.name, seat)
        self.opened = first.opened

    def choose(self, seq, option_id):
        self.requests.put(svc.PlayRequest(choice=svc.PlayChoice(expected_seq=seq, option_id=option_id)))
        return next(self.answers)

    def close(self):
        self.requests.put(None)
        rest = list(self.answers)
        return rest


def play_streamed(stub, run, cat, game):
    """Plays a game with one Play stream per seat instead of SubmitChoice:
    every state and event is checked as in `play`, a stale choice is
    refused on the stream without closing it, and the history is the one
    the streams were told."""
    seats = [PlaySeat(stub, game, seat) for seat in range(game.n)]
    for seat, ps in enumerate(seats):
        check(ps.opened.viewer_seat == seat, "Play opened seat %d with viewer %s" % (seat, ps.opened.viewer_seat),
              game.name)
        check_state(run, cat, game, ps.opened, seat, "Play open")
    gs = seats[0].opened
    x = check_state(run, cat, game, gs, 0, "Play open")
    steps = 0
    while not gs.HasField("outcome"):
        steps += 1
        check(steps <= STEP_CAP, "the streamed game did not end within %d choices" % STEP_CAP, game.name)
        d = gs.decision
        seat = game.rng.choice(sorted(d.deciders))
        opts = [o for o in d.options if seat in o.seats]
        check(opts, "decider %d has no option" % seat, game.name, gs.seq)
        if steps == 3:
            a = seats[seat].choose(gs.seq + 5, opts[0].id)
            check(a.WhichOneof("kind") == "refused" and a.refused.reason == svc.REFUSAL_CODE_ABORTED
                  and a.refused.reason == grpc.StatusCode.ABORTED.value[0],
                  "a stale choice on a Play stream: %s" % a, game.name)
            check(a.refused.message, "a refusal without a message", game.name)
        o = pick(game.rng, opts, x, seat)
        a = seats[seat].choose(gs.seq, o.id)
        check(a.WhichOneof("kind") == "accepted", "choice %s on a Play stream: %s" % (o.id, a), game.name, gs.seq)
        resp = a.accepted
        run.choices += 1
        check(resp.seq == gs.seq + 1 == resp.state.seq,
              "Play at seq %d returned seq %d / state seq %d" % (gs.seq, resp.seq, resp.state.seq), game.name)
        check(resp.state.viewer_seat == seat, "an accepted state for another viewer", game.name)
        game.submitted[resp.seq] = (tt.ENTRY_KIND_CHOICE, seat, o.id)
        gs = resp.state
        x = check_state(run, cat, game, gs, seat, "Play " + o.id)
        check_events(run, cat, game, resp.events, x, gs, game.name, "seq %d" % gs.seq)
        game.hashes[gs.seq] = gs.state_hash
    for ps in seats:
        check(ps.close() == [], "a Play stream answered after the client closed its side", game.name)
    game.tried_non_decider = True  # covered by the SubmitChoice games
    check_outcome(stub, run, cat, game, gs, x)
    return steps


def undo(stub, run, cat, game, gs, seat):
    """Takes back `seat`'s last choice: a new entry, the game as before it."""
    before = gs.seq
    # The choice taken back is the latest one no later undo took back; the
    # game returns to the state it was made in (seq k).
    k, pending = before, 0
    while True:
        if game.submitted[k][0] == tt.ENTRY_KIND_UNDO:
            pending += 1
        elif pending:
            pending -= 1
        else:
            break
        k -= 1
    k -= 1
    resp = stub.Undo(svc.UndoRequest(game_id=game.id, credentials=game.creds(seat), expected_seq=before))
    check(resp.seq == before + 1 == resp.state.seq, "Undo at seq %d returned seq %d" % (before, resp.seq), game.name)
    game.submitted[resp.seq] = (tt.ENTRY_KIND_UNDO, seat, "undo")
    gs = resp.state
    x = check_state(run, cat, game, gs, seat, "Undo")
    check(gs.state_hash == game.hashes[k],
          "after the undo at seq %d the state hash is not the one of seq %d" % (gs.seq, k), game.name)
    game.hashes[gs.seq] = gs.state_hash
    code = code_of(stub.Undo, svc.UndoRequest(game_id=game.id, credentials=game.creds(seat), expected_seq=before))
    check(code == grpc.StatusCode.ABORTED, "Undo with a stale seq: %s" % code, game.name)
    game.undone += 1
    return gs, x


def check_outcome(stub, run, cat, game, gs, x):
    out = gs.outcome
    check(out.kind == tt.OUTCOME_KIND_TEAM, "outcome kind %d" % out.kind, game.name)
    check(out.cause, "outcome without a cause", game.name)
    check(out.cause in DOCUMENTED_CAUSES, "outcome cause %r" % out.cause, game.name)
    check(out.won == (out.cause == "rift_sealed"), "won=%s with cause %r" % (out.won, out.cause), game.name)
    check(not out.scores and not out.ranking, "a cooperative outcome with scores or ranking", game.name)
    check(out.round == x.round, "outcome round %d, state round %d" % (out.round, x.round), game.name)
    if out.cause == "corruption_risen":
        check(x.corruption.position == x.corruption.rise, "corruption_risen below the Rise", game.name)
    if out.cause == "all_ships_destroyed":
        check(all(s.defeated for s in x.ships), "all_ships_destroyed with a ship left", game.name)
    # The game is over for everyone now.
    code = code_of(stub.SubmitChoice, svc.SubmitChoiceRequest(
        game_id=game.id, credentials=game.creds(0), expected_seq=gs.seq, option_id="end_turn"))
    check(code == grpc.StatusCode.FAILED_PRECONDITION, "SubmitChoice after the end: %s" % code, game.name)
    listed = [s for s in list_all(stub) if s.game_id == game.id][0]
    check(listed.status == tt.GAME_STATUS_FINISHED, "finished game listed with status %d" % listed.status, game.name)
    check(listed.HasField("seed") and listed.seed == game.summary_seed, "an ended game's seed not shown", game.name)
    check(listed.outcome == out, "listed outcome differs", game.name)
    check(listed.HasField("ended_at") and listed.ended_unix_ms > 0, "ended game without end time", game.name)
    check(listed.seq == gs.seq, "listed seq", game.name)
    h = stub.GetHistory(svc.GetHistoryRequest(game_id=game.id))
    check(len(h.entries) == gs.seq, "%d history entries at seq %d" % (len(h.entries), gs.seq), game.name)
    for i, e in enumerate(h.entries, 1):
        check(e.seq == i and (e.kind, e.seat, e.option_id) == game.submitted[i],
              "history entry %d" % i, game.name)
        check(e.HasField("at"), "history entry without time", game.name)
    v = stub.GetView(svc.GetViewRequest(game_id=game.id))
    check_state(run, cat, game, v.state, None, "spectator GetView after the end")
    check(v.state.state_hash == gs.state_hash, "spectator hash differs at the end", game.name)


def check_stream(run, cat, game, messages, error, from_seq, last_seq, viewer):
    where = "stream from %d (%s)" % (from_seq, "spectator" if viewer is None else "seat %d" % viewer)
    check(error is None, "%s failed: %s" % (where, error), game.name)
    check(messages, "%s: nothing received" % where, game.name)
    first = messages[0]
    check(first.snapshot and first.seq == from_seq and not first.HasField("entry") and not first.events,
          "%s does not open with a snapshot at %d" % (where, from_seq), game.name)
    expected = from_seq
    for m in messages:
        check(m.seq == expected, "%s: seq %d after %d" % (where, m.seq, expected - 1), game.name)
        check(m.state.seq == m.seq, "%s: state seq differs" % where, game.name)
        x = check_state(run, cat, game, m.state, viewer, where)
        check(m.state.state_hash == game.hashes[m.seq],
              "%s: state hash at seq %d differs from the seat's" % (where, m.seq), game.name)
        if not m.snapshot:
            check(m.HasField("entry") and m.entry.seq == m.seq,
                  "%s: entry at seq %d" % (where, m.seq), game.name)
            check((m.entry.kind, m.entry.seat, m.entry.option_id) == game.submitted[m.seq],
                  "%s: entry %d is not the choice made" % (where, m.seq), game.name)
            check_events(run, cat, game, m.events, x, m.state, game.name, where, "seq %d" % m.seq)
        else:
            check(m is first, "%s: a second snapshot" % where, game.name)
        expected += 1
    check(messages[-1].seq == last_seq and messages[-1].state.HasField("outcome"),
          "%s did not end with the outcome at seq %d" % (where, last_seq), game.name)


def stream_after_end(stub, run, cat, game, from_seq, seat):
    """A finished game's stream from a past seq: replayed, then closed."""
    req = svc.StreamGameRequest(game_id=game.id, from_seq=from_seq)
    if seat is not None:
        req.credentials.CopyFrom(game.creds(seat))
    msgs = list(stub.StreamGame(req, timeout=STREAM_WAIT_SECONDS))
    return msgs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--server", required=True, help="host:port of xodus-server, or unix:PATH for its Unix socket")
    ap.add_argument("--seed", type=int, default=2028, help="seed of the games and of the picks")
    ap.add_argument("--extra-games", type=int, default=2, help="more seeded games (3 or 4 ships)")
    ap.add_argument("--strict", action="store_true", help="known deviations fail the run")
    args = ap.parse_args()

    t0 = time.monotonic()
    run = Run(args.strict)
    chan = channel(args.server)
    wait_serving(chan)
    stub = svc_grpc.GameServiceStub(chan)

    cat = Catalog(stub.GetCatalog(svc.GetCatalogRequest(game_type=GAME_TYPE)))
    check(Catalog(stub.GetCatalog(svc.GetCatalogRequest(game_type=GAME_TYPE))).size == cat.size, "catalog changed")
    code = code_of(stub.GetCatalog, svc.GetCatalogRequest(game_type="no_such_game"))
    check(code == grpc.StatusCode.NOT_FOUND, "GetCatalog of an unknown game: %s" % code)

    # The default setup: 3 random distinct ships, casual, 2 random Allies.
    dflt = create(stub, run, cat, "default", None, 3, by_type=True)
    claim_all(stub, dflt)
    dflt.summary_seed = None
    v = stub.GetView(svc.GetViewRequest(game_id=dflt.id))
    x = check_state(run, cat, dflt, v.state, None, "default setup")
    check(x.config.difficulty == xs.DIFFICULTY_CASUAL, "default difficulty is not casual")

    s = args.seed
    specs = [
        ("casual-3", setup_pb2.XodusSetup(ship_count=3, difficulty="casual", seed=s), 3, False, True),
        ("hardened-4", setup_pb2.XodusSetup(
            ships=["warship", "battlecruiser", "explorer", "pirate_ship"], difficulty="hardened",
            allies=["cartographer", "smuggler"], seed=s + 1), 4, True, False),
        ("heroic-nightmare-4", setup_pb2.XodusSetup(
            ship_count=4, difficulty="heroic", nightmare=True, seed=s + 2), 4, False, False),
        ("casual-3-named", setup_pb2.XodusSetup(
            ships=["drone_specialist", "proto_ship", "pirate_ship"],
            allies=["specialised_engineer", "mercenary"], seed=s + 3), 3, False, True),
    ]
    for i in range(args.extra_games):
        n = 3 + i % 2
        specs.append(("extra-%d" % i, setup_pb2.XodusSetup(ship_count=n, seed=s + 10 + i), n, False, False))

    results = []
    for name, setup, n, by_type, spectate in specs:
        game = create(stub, run, cat, name, setup, n, by_type)
        game.summary_seed = game.summary.seed
        game.rng = random.Random("%s/%d" % (name, setup.seed))
        game.undos = 3
        claim_all(stub, game)
        t = time.monotonic()
        steps = play(stub, run, cat, game, spectate)
        results.append((name, game, steps, time.monotonic() - t))
    # One more game played over Play streams, one per seat.
    setup = setup_pb2.XodusSetup(ship_count=3, difficulty="casual", seed=s + 40)
    game = create(stub, run, cat, "play-streams-3", setup, 3, False)
    game.summary_seed = game.summary.seed
    game.rng = random.Random("play-streams/%d" % setup.seed)
    claim_all(stub, game)
    t = time.monotonic()
    steps = play_streamed(stub, run, cat, game)
    results.append(("play-streams-3", game, steps, time.monotonic() - t))

    # Streams of finished games: a seat's stream from the middle.
    name, game, steps, _ = results[0]
    mid = steps // 2
    last = stub.GetView(svc.GetViewRequest(game_id=game.id)).state.seq
    msgs = stream_after_end(stub, run, cat, game, mid, 1)
    check_stream(run, cat, game, msgs, None, mid, last, 1)
    msgs = stream_after_end(stub, run, cat, game, last, None)
    check_stream(run, cat, game, msgs, None, last, last, None)
    code = code_of(stream_after_end, stub, run, cat, game, last + 1, None)
    check(code == grpc.StatusCode.OUT_OF_RANGE, "StreamGame beyond the last seq: %s" % code)

    elapsed = time.monotonic() - t0
    check(all(g.tried_non_decider for _, g, _, _ in results), "no game had a seat outside the deciders")
    for name, game, steps, secs in results:
        x = xs.XodusState()
        v = stub.GetView(svc.GetViewRequest(game_id=game.id))
        v.state.game_state.Unpack(x)
        o = v.state.outcome
        print("  %-20s %s  %d ships  %4d choices  %d undos  round %2d  %-5s %-20s %.2fs"
              % (name, game.id, game.n, steps, game.undone, o.round, "won" if o.won else "lost", o.cause, secs))
    print("python client: %d games played to the end, %d choices, %d states and %d events checked, %.1f s"
          % (len(results), run.choices, run.states, run.events, elapsed))
    print("  typed events: %s" % dict(sorted(run.typed_events.items())))
    print("  untyped events: %s" % dict(sorted(run.untyped_events.items())))
    print("  decision kinds: %s" % dict(sorted(run.decision_kinds.items())))
    print("  option actions: %s" % " ".join(sorted(run.actions)))
    print("  option hexes: %s" % dict(sorted(("%s %s" % k, v) for k, v in run.hex_targets.items())))
    if run.deviations:
        print("WARNING: %d documented promises the server does not keep (known; --strict fails on them):"
              % len(run.deviations))
        for key, (count, example) in run.deviations.items():
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
