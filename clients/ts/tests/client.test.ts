// The package against a real xodus-server over gRPC-Web from Node: create
// a game, claim its seats, play choices with SubmitChoice, watch it with
// StreamGame, resume from a seq, and reopen a stream dropped by the network
// or by a server restart; table talk: say a line and a signal, hear them
// on a stream, resume from a talk_seq, mute, and the refusals' codes;
// hints: refused without an agent, then the seat's best options from an
// `xodus-ai --fill` the test starts. No timed assertion: waits are for
// states; their timeouts only stop a hung run.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { create } from "@bufbuild/protobuf";
import { anyPack, anyUnpack } from "@bufbuild/protobuf/wkt";
import {
  askHint, checkTalk, claimSeat, hintRefusal, Code, connect, errorCode, errorText, GameWatch, MemoryStore, muteSeat, play, retryAfterMs, say,
  SeatBook, signal, trouble, TALK_MAX_CHARS, type GameClient, type Seat,
} from "../src/index";
import { GameKind, SeatOpenTo, TalkAudience, type GameState, type TalkLine } from "../src/gen/tabletop/v1/game_pb";
import { XodusSignalKind, XodusSignalSchema } from "../src/gen/xodus/v1/talk_pb";
import { LegioSignalKind, LegioSignalSchema } from "../src/gen/legio/v1/talk_pb";
import { LegioSetupSchema } from "../src/gen/legio/v1/setup_pb";
import type { StreamGameResponse } from "../src/gen/tabletop/v1/service_pb";
import { Agent, Server } from "./server";

const server = new Server();
let client: GameClient;

before(async () => {
  await server.start();
  client = connect(server.url);
});
after(async () => {
  await server.dispose();
});

/** A small seeded random generator, so that a run's picks are repeatable. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** A new X-ODUS game (the default setup: three ships) with every seat
 * claimed by this client. */
async function newGame(): Promise<{ gameId: string; seats: Seat[]; state: GameState }> {
  const created = await client.createGame({ kind: GameKind.XODUS, seats: [SeatOpenTo.HUMAN, SeatOpenTo.ANY, SeatOpenTo.HUMAN] });
  const game = created.game;
  assert.ok(game, "CreateGameResponse carries the game");
  const seats: Seat[] = [];
  for (const s of game.seats) seats.push(await claimSeat(client, game.gameId, s.seat));
  assert.equal(seats.length, 3);
  const first = seats[0] as Seat;
  const view = await client.getView({ gameId: game.gameId, credentials: { seat: first.seat, token: first.token } });
  assert.ok(view.state);
  return { gameId: game.gameId, seats, state: view.state };
}

/** Plays `n` choices (a random option of a seat among the deciders), each
 * with SubmitChoice on the seq just seen; returns the last state. */
async function playSome(seats: Seat[], state: GameState, n: number, random: () => number): Promise<GameState> {
  for (let i = 0; i < n && !state.outcome; i++) {
    const decision = state.decision;
    assert.ok(decision && decision.deciders.length > 0, "a pending decision");
    const seat = seats[decision.deciders[Math.floor(random() * decision.deciders.length)] as number] as Seat;
    const options = decision.options.filter((o) => o.seats.length === 0 || o.seats.includes(seat.seat));
    assert.ok(options.length > 0, `seat ${seat.seat} has options at seq ${state.seq}`);
    const option = options[Math.floor(random() * options.length)];
    assert.ok(option);
    const r = await play(client, seat, state.seq, option.id);
    assert.equal(r.seq, state.seq + 1n, "one choice is one history entry");
    assert.ok(r.state, "the reply carries the new state");
    assert.equal(r.state.seq, r.seq);
    state = r.state;
  }
  return state;
}

/** Collects a watch's messages in the background. */
function collect(w: GameWatch): { msgs: StreamGameResponse[]; done: Promise<unknown> } {
  const msgs: StreamGameResponse[] = [];
  const done = (async () => {
    for await (const m of w) msgs.push(m);
  })().catch((err: unknown) => err);
  return { msgs, done };
}

/** Waits until `cond` holds, checking as messages come (a hung run stops
 * after two minutes). */
async function until(cond: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 120_000;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`never: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The seqs of the entries in a list of stream messages, with a check that
 * each entry's state is the state after it. */
function entrySeqs(msgs: StreamGameResponse[]): bigint[] {
  return msgs.filter((m) => m.entry).map((m) => {
    assert.equal(m.state?.seq, m.entry?.seq, "the state after each entry");
    return m.entry?.seq ?? -1n;
  });
}

const range = (from: bigint, to: bigint): bigint[] => {
  const out: bigint[] = [];
  for (let s = from; s <= to; s++) out.push(s);
  return out;
};

test("create, claim, play with SubmitChoice and expected_seq; a spectator's watch gets every entry once, in order", async () => {
  const { gameId, seats, state } = await newGame();
  assert.equal(state.seq, 0n);
  const stop = new AbortController();
  const w = new GameWatch(client, gameId, { signal: stop.signal });
  const seen = collect(w);
  const last = await playSome(seats, state, 20, rng(7));
  await until(() => w.lastSeq === last.seq, `the watch reaches seq ${last.seq}`);
  stop.abort();
  assert.equal(await seen.done, undefined, "stopping ends the watch quietly");
  const [snap] = seen.msgs;
  assert.ok(snap?.snapshot && snap.seq === 0n, "a snapshot at seq 0 first");
  assert.deepEqual(entrySeqs(seen.msgs), range(1n, last.seq));
  assert.equal(seen.msgs.at(-1)?.state?.stateHash, last.stateHash, "the watch and the player agree on the state");

  // A choice on a state that is no longer current changes nothing: ABORTED.
  const decider = seats[last.decision?.deciders[0] ?? 0] as Seat;
  const option = last.decision?.options.find((o) => o.seats.length === 0 || o.seats.includes(decider.seat));
  assert.ok(option);
  await assert.rejects(play(client, decider, last.seq - 1n, option.id), (err) => trouble(err) === "stale" && /^ABORTED/.test(errorText(err)));
  // A wrong token: UNAUTHENTICATED, the seat is lost.
  await assert.rejects(play(client, { ...decider, token: "0".repeat(32) }, last.seq, option.id), (err) => trouble(err) === "seat_lost");
  const view = await client.getView({ gameId });
  assert.equal(view.state?.seq, last.seq, "nothing was played by the refused choices");
});

test("resume: a watch opened from seq K starts with a snapshot at K, then exactly the entries after it", async () => {
  const { gameId, seats, state } = await newGame();
  const random = rng(11);
  const mid = await playSome(seats, state, 6, random);
  // As a seat, with its seat messages (who holds the seats), from K = 6.
  const stop = new AbortController();
  const w = new GameWatch(client, gameId, { fromSeq: mid.seq, seat: seats[1] as Seat, seatUpdates: true, signal: stop.signal });
  const seen = collect(w);
  const last = await playSome(seats, mid, 6, random);
  await until(() => w.lastSeq === last.seq, `the watch reaches seq ${last.seq}`);
  stop.abort();
  await seen.done;
  const [snap] = seen.msgs;
  assert.ok(snap?.snapshot, "a snapshot first");
  assert.equal(snap.seq, mid.seq, "at the seq it resumed from");
  assert.equal(snap.state?.viewerSeat, 1, "seen as seat 1");
  assert.ok(snap.game && snap.game.seats.every((s) => s.claimed), "with the seats (seat_updates)");
  assert.deepEqual(entrySeqs(seen.msgs), range(mid.seq + 1n, last.seq), "no gap, no repeat");

  // Past the game's seq: OUT_OF_RANGE, which watching again cannot mend.
  const beyond = new GameWatch(client, gameId, { fromSeq: last.seq + 5n });
  await assert.rejects(collect(beyond).done.then((e) => { throw e; }), (err) => /^OUT_OF_RANGE/.test(errorText(err)));
  // No such game: NOT_FOUND at once, not retried.
  const drops: unknown[] = [];
  const none = new GameWatch(client, "no-such-game", { onDrop: (e) => drops.push(e) });
  await assert.rejects(collect(none).done.then((e) => { throw e; }), (err) => trouble(err) === "missing");
  assert.deepEqual(drops, []);
});

test("a stream cut by the network is reopened from the last seq by itself: one snapshot there, then no entry lost or repeated", async () => {
  // A fetch whose StreamGame responses the test can cut, as a dropped
  // connection would.
  const open = new Set<AbortController>();
  const cutting: typeof fetch = (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (!url.endsWith("/StreamGame")) return fetch(input, init);
    const ctl = new AbortController();
    init?.signal?.addEventListener("abort", () => ctl.abort());
    open.add(ctl);
    return fetch(input, { ...init, signal: ctl.signal });
  };
  const flaky = connect(server.url, { fetch: cutting });
  const { gameId, seats, state } = await newGame();
  const random = rng(3);
  const drops: unknown[] = [];
  const stop = new AbortController();
  const w = new GameWatch(flaky, gameId, { seat: seats[0] as Seat, signal: stop.signal, firstDelayMs: 50, onDrop: (e) => drops.push(e) });
  const seen = collect(w);
  let now = await playSome(seats, state, 4, random);
  await until(() => w.lastSeq === now.seq, "the watch is at the last choice");
  const cutAt = now.seq;
  for (const c of open) c.abort();
  open.clear();
  now = await playSome(seats, now, 4, random);
  await until(() => w.lastSeq === now.seq, "the watch caught up after the cut");
  stop.abort();
  await seen.done;
  assert.equal(drops.length, 1, "one drop");
  const snaps = seen.msgs.filter((m) => m.snapshot).map((m) => m.seq);
  assert.deepEqual(snaps, [0n, cutAt], "the reopened stream starts at the last seq seen");
  assert.deepEqual(entrySeqs(seen.msgs), range(1n, now.seq));
});

test("the server stops and starts again: the watch says it dropped, waits, and resumes from the last seq; the seat plays on", async () => {
  const { gameId, seats, state } = await newGame();
  const random = rng(5);
  const drops: unknown[] = [];
  const stop = new AbortController();
  const w = new GameWatch(client, gameId, { seat: seats[2] as Seat, signal: stop.signal, firstDelayMs: 100, maxDelayMs: 400, onDrop: (e) => drops.push(e) });
  const seen = collect(w);
  let now = await playSome(seats, state, 5, random);
  await until(() => w.lastSeq === now.seq, "the watch is at the last choice");
  await server.stop();
  await until(() => drops.length >= 2, "the watch tried again while the server was down");
  assert.ok(drops.some((e) => trouble(e) === "offline"), `a dropped stream reads as offline: ${drops.map((e) => errorText(e)).join("; ")}`);
  await server.start();
  // The seat's token and the game survived the restart.
  now = await playSome(seats, now, 3, random);
  await until(() => w.lastSeq === now.seq, "the watch resumed and caught up");
  stop.abort();
  await seen.done;
  const snaps = seen.msgs.filter((m) => m.snapshot).map((m) => m.seq);
  assert.deepEqual(snaps, [0n, now.seq - 3n], "the resumed stream starts at the last seq seen before the stop");
  assert.deepEqual(entrySeqs(seen.msgs), range(1n, now.seq));
});

test("a seat book keeps each game's seat and token, and moves the last seq forward only", () => {
  const book = new SeatBook(new MemoryStore());
  book.save({ gameId: "g1", seat: 2, token: "t", lastSeq: "0" });
  book.save({ gameId: "g2", seat: 0, token: "u", lastSeq: "4" });
  book.saveLastSeq("g1", 9n);
  book.saveLastSeq("g1", 3n);
  assert.equal(book.load("g1")?.lastSeq, "9");
  assert.deepEqual(book.all().map((s) => s.gameId).sort(), ["g1", "g2"]);
  book.forget("g2");
  assert.equal(book.load("g2"), undefined);
});

/** The lines of talk in a list of stream messages, in order. */
function talkOf(msgs: StreamGameResponse[]): TalkLine[] {
  return msgs.flatMap((m) => m.talk);
}

test("table talk: a line and a signal are heard on a seat's stream, not a private line on a spectator's; a resumed watch hears only what came since; a mute; the refusals' codes", async () => {
  const { gameId, seats, state } = await newGame();
  const [s0, s1, s2] = seats as [Seat, Seat, Seat];
  const stop = new AbortController();
  const w = new GameWatch(client, gameId, { seat: s1, talk: true, signal: stop.signal });
  const heard = collect(w);
  const spectator = new GameWatch(client, gameId, { talk: true, signal: stop.signal });
  const watched = collect(spectator);
  await until(() => heard.msgs.length > 0 && watched.msgs.length > 0, "both streams opened");

  const hello = await say(client, s0, "<b>hello</b> from seat 0");
  assert.equal(hello.talkSeq, 1n);
  assert.equal(hello.speaker, 0);
  assert.equal(hello.audience, TalkAudience.TABLE);
  assert.equal(hello.gameSeq, state.seq, "said at the game's seq");
  // A signal of X-ODUS's own: wait for me at the Starting System (0,0).
  const wait = anyPack(XodusSignalSchema, create(XodusSignalSchema, { kind: XodusSignalKind.WAIT_FOR_ME, system: { q: 0, r: 0 } }));
  const called = await signal(client, s0, wait, { to: "team", text: "hold on" });
  assert.ok(called.signalWords.length > 0, "the server words the signal");
  const secret = await say(client, s0, "for seat 1 only", { to: { seat: 1 } });
  assert.equal(secret.toSeat, 1);

  await until(() => talkOf(heard.msgs).length === 3, "seat 1 hears the three lines");
  const lines = talkOf(heard.msgs);
  assert.deepEqual(lines.map((l) => l.talkSeq), [1n, 2n, 3n]);
  assert.equal(lines[0]?.text, "<b>hello</b> from seat 0", "text comes as it was typed");
  const sig = lines[1]?.signal ? anyUnpack(lines[1].signal, XodusSignalSchema) : undefined;
  assert.equal(sig?.kind, XodusSignalKind.WAIT_FOR_ME);
  assert.deepEqual([sig?.system?.q, sig?.system?.r], [0, 0]);
  assert.equal(lines[1]?.signalWords, called.signalWords);
  assert.equal(w.lastTalkSeq, 3n);
  // Said live: in messages of their own, with no state, at the game's seq.
  assert.ok(heard.msgs.filter((m) => m.talk.length).every((m) => !m.state && m.seq === state.seq));
  // The spectator hears the table only: neither the team line nor the private one.
  await until(() => talkOf(watched.msgs).length >= 1, "the spectator hears the table line");
  const extra = await say(client, s2, "a line for all from seat 2");
  await until(() => talkOf(watched.msgs).some((l) => l.talkSeq === extra.talkSeq), "the spectator hears seat 2");
  assert.deepEqual(talkOf(watched.msgs).map((l) => l.talkSeq), [1n, extra.talkSeq]);
  await until(() => w.lastTalkSeq === extra.talkSeq, "seat 1 hears seat 2");
  stop.abort();
  await Promise.all([heard.done, watched.done]);

  // Resumed from the last seq and talk_seq heard: only the lines said since.
  const again = new AbortController();
  const w2 = new GameWatch(client, gameId, { seat: s1, fromSeq: w.lastSeq, talk: true, fromTalkSeq: w.lastTalkSeq, signal: again.signal });
  const resumed = collect(w2);
  const later = await say(client, s2, "said after the drop");
  await until(() => w2.lastTalkSeq === later.talkSeq, "the resumed watch hears the new line");
  // Seat 1 stops hearing seat 2; its own line comes after seat 2's next
  // one, which never comes.
  assert.deepEqual(await muteSeat(client, s1, 2), [2]);
  await say(client, s2, "not heard by seat 1");
  const own = await say(client, s1, "seat 1 hears itself");
  await until(() => w2.lastTalkSeq === own.talkSeq, "seat 1 hears its own line");
  assert.deepEqual(talkOf(resumed.msgs).map((l) => l.text), ["said after the drop", "seat 1 hears itself"]);
  assert.deepEqual(await muteSeat(client, s1, 2, false), []);
  again.abort();
  await resumed.done;

  // GetHistory: the talk a seat may hear.
  const history = await client.getHistory({ gameId, credentials: { seat: s1.seat, token: s1.token } });
  assert.ok(history.talk.some((l) => l.text === "for seat 1 only"));

  // Refusals: their codes, and the checks a front-end makes first.
  const long = "x".repeat(TALK_MAX_CHARS + 1);
  assert.equal(checkTalk(long), "too_long");
  assert.equal(checkTalk("two\nlines"), "control");
  assert.equal(checkTalk("é".repeat(TALK_MAX_CHARS)), undefined, "characters, not bytes");
  await assert.rejects(say(client, s2, long), (err) => errorCode(err) === Code.InvalidArgument && /280/.test(errorText(err)));
  await assert.rejects(say(client, s2, "two\nlines"), (err) => errorCode(err) === Code.InvalidArgument);
  await assert.rejects(say(client, s2, "   "), (err) => errorCode(err) === Code.InvalidArgument);
  await assert.rejects(say(client, { ...s2, token: "0".repeat(32) }, "who am I"), (err) => trouble(err) === "seat_lost");
  // Too many lines at once: RESOURCE_EXHAUSTED, with when to try again.
  let refused: unknown;
  for (let i = 0; i < 8 && !refused; i++) {
    try {
      await say(client, s0, `line ${i}`);
    } catch (err) {
      refused = err;
    }
  }
  assert.equal(trouble(refused), "busy", `refused as too fast: ${errorText(refused)}`);
  assert.ok((retryAfterMs(refused) ?? 0) > 0, "the message says when to retry");
  assert.equal(retryAfterMs(new Error("other")), undefined);
});

test("table talk in a competitive game: no team line (FAILED_PRECONDITION); a VII Legio signal in words", async () => {
  const setup = anyPack(LegioSetupSchema, create(LegioSetupSchema, { players: 2 }));
  const created = await client.createGame({ gameType: "legio", seats: [SeatOpenTo.HUMAN, SeatOpenTo.HUMAN], setup: { case: "gameSetup", value: setup } });
  const gameId = created.game?.gameId ?? "";
  const a = await claimSeat(client, gameId, 0);
  await assert.rejects(say(client, a, "just us", { to: "team" }), (err) => errorCode(err) === Code.FailedPrecondition && trouble(err) === "refused");
  const land = anyPack(LegioSignalSchema, create(LegioSignalSchema, { kind: LegioSignalKind.PROPOSE_LANDING, sector: 2 }));
  const line = await signal(client, a, land, { to: { seat: 1 } });
  assert.match(line.signalWords, /3|S3|sector/i, `words: ${line.signalWords}`);
  // A signal of another game: INVALID_ARGUMENT.
  const foreign = anyPack(XodusSignalSchema, create(XodusSignalSchema, { kind: XodusSignalKind.GO_AHEAD }));
  await assert.rejects(signal(client, a, foreign), (err) => errorCode(err) === Code.InvalidArgument);
});

test("hints: refused in words without an agent (FAILED_PRECONDITION); with xodus-ai --fill, the asking seat's own options, best first, with reasons; too soon; no decision", async () => {
  const { seats, state } = await newGame();
  const d = state.decision;
  assert.ok(d && d.deciders.length > 0, "a pending decision");
  const decider = seats[d.deciders[0] as number] as Seat;
  const noAgent = await askHint(client, decider).then(() => undefined, (err: unknown) => err);
  assert.equal(errorCode(noAgent), Code.FailedPrecondition, errorText(noAgent));
  assert.match(errorText(noAgent), /no AI agent serves hints/);
  assert.equal(hintRefusal(noAgent), "no_agent");

  const agent = new Agent(server.url);
  agent.start();
  try {
    // The agent serves hints once it is connected; a seat may ask every 2 s.
    let hint;
    const end = Date.now() + 120_000;
    while (!hint) {
      assert.ok(Date.now() < end, "the agent serves hints");
      try {
        hint = await askHint(client, decider);
      } catch (err) {
        const why = hintRefusal(err);
        assert.ok(why === "no_agent" || why === "too_soon", errorText(err));
        await new Promise((r) => setTimeout(r, (retryAfterMs(err) ?? 500) + 50));
      }
    }
    assert.equal(hint.seq, state.seq, "about the state asked on");
    assert.ok(hint.options.length >= 1 && hint.options.length <= 3, `1-3 options: ${hint.options.length}`);
    const mine = d.options.filter((o) => o.seats.includes(decider.seat));
    for (const o of hint.options) {
      const shown = mine.find((m) => m.id === o.optionId);
      assert.ok(shown, `one of the seat's own options: ${o.optionId}`);
      assert.equal(o.label, shown.label, "with the label the seat was shown");
      assert.ok(o.reason.length > 0, `a reason for ${o.optionId}`);
      assert.ok(Number.isFinite(o.estimate));
    }
    assert.equal(new Set(hint.options.map((o) => o.optionId)).size, hint.options.length, "each option once");
    for (let i = 1; i < hint.options.length; i++) {
      assert.ok((hint.options[i - 1]?.estimate ?? 0) >= (hint.options[i]?.estimate ?? 0), "best first");
    }
    // Again at once: too soon, with the wait in the message.
    const again = await askHint(client, decider).then(() => undefined, (err: unknown) => err);
    assert.equal(errorCode(again), Code.ResourceExhausted, errorText(again));
    assert.equal(hintRefusal(again), "too_soon");
    assert.ok((retryAfterMs(again) ?? 0) > 0, "the message says when to retry");
    // A seat without a decision now (played on until one waits):
    // FAILED_PRECONDITION, and why.
    let now = state;
    const random = rng(62);
    const waiting = () => seats.find((s) => !now.decision?.deciders.includes(s.seat));
    for (let i = 0; i < 100 && !waiting() && !now.outcome; i++) now = await playSome(seats, now, 1, random);
    const idle = waiting();
    assert.ok(idle, "a seat waits on the others");
    const none = await askHint(client, idle).then(() => undefined, (err: unknown) => err);
    assert.equal(errorCode(none), Code.FailedPrecondition, errorText(none));
    assert.equal(hintRefusal(none), "no_decision", errorText(none));
    assert.equal(hintRefusal(new Error("other")), undefined);
  } finally {
    await agent.stop();
  }
});
