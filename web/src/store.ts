// The state store of one table: follows StreamGame with @xodus/client's
// watch (from the last seq seen, reopened after a network failure, with the
// seats' changes and the table talk), keeps the latest GameState with its
// game's typed state, the game's lobby data, the event log and the talk
// heard, sends choices and undos (each spent once: a second one
// waits until the new state arrives), tells the player in plain words when
// a call fails, says lines and signals and mutes seats (talk.ts words the
// refusals), asks for hints (hint.ts words the refusals), and tells the
// views when something changed. It knows no rule.
import type { Any } from "@bufbuild/protobuf/wkt";
import { askHint, credentials, isFatal, muteSeat, play, say, watch, type Audience, type GameWatch } from "@xodus/client";
import type { Event, GameState, GameSummary, SeatCredentials, TalkLine } from "@xodus/client/gen/tabletop/v1/game_pb";
import type { AskHintResponse } from "@xodus/client/gen/tabletop/v1/service_pb";
import { api, errorText, isCanceled, offlineText, playerText, trouble } from "./client";
import { loadLog, saveLastSeq, saveLog } from "./session";
import { setStatus } from "./status";

export interface Table {
  gameId: string;
  /** The latest state, once the first message arrived. */
  state?: GameState;
  /** Its game's registered type ("xodus", "legio"). */
  gameType?: string;
  /** Its typed part (XodusState, LegioState...), read by the game's table. */
  detail?: unknown;
  /** The game's lobby data (seats and who holds them). */
  summary?: GameSummary;
  /** Our seat, when we play one. */
  seat?: number;
  /** The event log, oldest first. */
  log: string[];
  /** The events received since the page opened the table, oldest first
   * (the last 500), for tables that draw from them. */
  events: Event[];
  /** The table talk heard, oldest first (the last 500). */
  talk: TalkLine[];
  /** The seats our seat does not hear (MuteSeat). */
  muted: number[];
  /** A choice or undo is on its way. */
  pending: boolean;
  /** The stream is connected. */
  live: boolean;
  /** The server could not be reached: no choice until the stream is back. */
  offline: boolean;
  /** The server has no such game. */
  missing: boolean;
}

/** What the store needs of a game: its typed state, and its log lines. */
export interface GameReader {
  unpack(state: GameState): unknown;
  /** A log line for an event (default: its summary). */
  logLine?(e: Event): string;
}

/** Why following a game stopped for good. */
export type Fatal = "missing" | "seat_lost" | "other";

type Listener = (t: Table) => void;

/** Told of the lines of talk as they come: `live` is false for the lines
 * said before the page looked (in the opening snapshot, or replayed with
 * the game's past updates). */
type TalkListener = (lines: TalkLine[], live: boolean) => void;

export class GameStore {
  readonly table: Table;
  private readonly creds?: SeatCredentials;
  private readonly abort = new AbortController();
  /** The stream being followed (reconnect() reopens it at once). */
  private watch?: GameWatch;
  private listeners: Listener[] = [];
  private talkListeners: TalkListener[] = [];
  private frame = 0;
  private lastSeq: bigint;

  /** `games(type)` reads a game type's typed state (and may word its log
   * lines); the generic table's reader for a type this page has no UI of
   * its own for. */
  constructor(gameId: string, fromSeq: bigint, seat: { seat: number; token: string } | undefined, private games: (type: string) => GameReader) {
    this.lastSeq = fromSeq;
    this.table = { gameId, log: seat ? loadLog(gameId) : [], events: [], talk: [], muted: [], pending: false, live: false, offline: false, missing: false };
    if (seat) {
      this.creds = credentials(seat);
      this.table.seat = seat.seat;
    }
  }

  /** Our seat's credentials, when we play one. */
  credentials(): SeatCredentials | undefined {
    return this.creds;
  }

  subscribe(fn: Listener): void {
    this.listeners.push(fn);
  }

  /** Hears the lines of talk as they come (see TalkListener). */
  subscribeTalk(fn: TalkListener): void {
    this.talkListeners.push(fn);
  }

  /** Views are redrawn at most once a frame, however fast updates come. */
  private changed(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      for (const fn of this.listeners) fn(this.table);
    });
  }

  /** Starts following the game; returns when the game is over, stopped,
   * or cannot be followed (then `onFatal` says why). */
  async run(onFatal: (why: Fatal, detail: string) => void): Promise<void> {
    const w = watch(api, this.table.gameId, {
      fromSeq: this.lastSeq,
      ...(this.creds ? { seat: this.creds } : {}),
      seatUpdates: true,
      talk: true,
      signal: this.abort.signal,
      onDrop: (err) => {
        this.table.live = false;
        this.changed();
        // After our own reconnect the status already says why.
        if (err !== undefined) this.goOffline(err);
      },
    });
    this.watch = w;
    try {
      for await (const msg of w) {
        if (!this.table.live) {
          this.table.live = true;
          setStatus(this.table.offline ? "Back online." : "Connected.", "ok");
          this.table.offline = false;
          this.changed();
        }
        const reader = this.games(msg.state?.gameType || this.table.gameType || "xodus");
        const lines = msg.events.map((e) => reader.logLine?.(e) ?? e.summary).filter((x) => x);
        if (lines.length) this.addLog(lines);
        if (msg.events.length) {
          this.table.events.push(...msg.events);
          if (this.table.events.length > 500) this.table.events.splice(0, this.table.events.length - 500);
        }
        // The seats: in the snapshot, then after each change.
        if (msg.game) {
          this.table.summary = msg.game;
          this.changed();
        }
        if (msg.state) this.apply(msg.state);
        // The seat's mutes are kept with the game: read back at each
        // (re)opening, so a reloaded page shows them.
        if (msg.snapshot && this.creds) void this.readMutes();
        // Lines alone in a message were said live; lines with an update
        // were said at its seq: live too when said moments ago (not a
        // replay of the game's past).
        if (msg.talk.length) this.hear(msg.talk, !msg.snapshot && (!msg.state || msg.talk.some((l) => Date.now() - Number(l.saidAt?.seconds ?? 0n) * 1000 < 30_000)));
      }
      // The watch ends after the update that carries the outcome, or when stopped.
      this.table.live = false;
      this.changed();
      if (w.finished) void this.refreshSummary();
    } catch (err) {
      this.table.live = false;
      this.changed();
      if (this.abort.signal.aborted || !isFatal(err)) return;
      const why = trouble(err);
      if (why === "missing" || why === "seat_lost") {
        this.table.missing = why === "missing";
        this.changed();
        onFatal(why, errorText(err));
        return;
      }
      onFatal("other", errorText(err));
    }
  }

  stop(): void {
    this.abort.abort();
    cancelAnimationFrame(this.frame);
  }

  /** The server cannot be reached: options off, and say so. */
  private goOffline(err: unknown): void {
    this.table.offline = true;
    this.table.pending = false;
    this.changed();
    setStatus(offlineText(), "error", errorText(err));
  }

  private apply(state: GameState): void {
    const prev = this.table.state;
    if (prev && state.seq < prev.seq) return;
    const type = state.gameType || "xodus";
    this.table.state = state;
    this.table.gameType = type;
    this.table.detail = this.games(type).unpack(state) ?? this.table.detail;
    if (!prev || state.seq !== prev.seq) this.table.pending = false;
    this.lastSeq = state.seq;
    if (this.creds) saveLastSeq(this.table.gameId, state.seq);
    this.changed();
  }

  private hear(lines: TalkLine[], live: boolean): void {
    this.table.talk.push(...lines);
    if (this.table.talk.length > 500) this.table.talk.splice(0, this.table.talk.length - 500);
    for (const fn of this.talkListeners) fn(lines, live);
    this.changed();
  }

  /** Says a line (text, a signal, or both) as our seat. Resolves when the
   * server took it; throws the call's error when it refused (talk.ts says
   * why in player words). The line comes back on the stream. */
  async say(text: string, to: Audience, signal?: Any): Promise<void> {
    if (!this.creds) return;
    const seat = { gameId: this.table.gameId, seat: this.creds.seat, token: this.creds.token };
    await say(api, seat, text, { to, ...(signal ? { signal } : {}) });
  }

  /** Stops or resumes hearing a seat. */
  async mute(other: number, muted: boolean): Promise<void> {
    if (!this.creds) return;
    const seat = { gameId: this.table.gameId, seat: this.creds.seat, token: this.creds.token };
    this.table.muted = await muteSeat(api, seat, other, muted);
    this.changed();
  }

  /** Asks for advice on our seat's pending decision (AskHint). Throws the
   * call's error when refused (hint.ts says why in player words). */
  async askHint(): Promise<AskHintResponse> {
    if (!this.creds) throw new Error("a spectator has no decision to ask about");
    return askHint(api, { gameId: this.table.gameId, seat: this.creds.seat, token: this.creds.token }, { signal: this.abort.signal });
  }

  private addLog(lines: string[]): void {
    this.table.log.push(...lines);
    if (this.table.log.length > 2000) this.table.log.splice(0, this.table.log.length - 2000);
    if (this.creds) saveLog(this.table.gameId, this.table.log);
  }

  /** The seats our seat does not hear, as the server keeps them. */
  private async readMutes(): Promise<void> {
    try {
      const r = await api.getView({ gameId: this.table.gameId, credentials: this.creds }, { signal: this.abort.signal });
      this.table.muted = [...r.muted];
      this.changed();
    } catch {
      // Not worth a message: the mute buttons show none until the next reopening.
    }
  }

  async refreshSummary(): Promise<void> {
    try {
      const r = await api.getView({ gameId: this.table.gameId, credentials: this.creds }, { signal: this.abort.signal });
      this.table.summary = r.game;
      this.changed();
    } catch (err) {
      if (!isCanceled(err)) setStatus(playerText(err), "error", errorText(err));
    }
  }

  /** Fetches the state now (after a refused choice): the stream brings it
   * too, but perhaps later. */
  private async refetch(): Promise<void> {
    try {
      const r = await api.getView({ gameId: this.table.gameId, credentials: this.creds }, { signal: this.abort.signal });
      if (r.game) this.table.summary = r.game;
      if (r.state) this.apply(r.state);
      this.changed();
    } catch (err) {
      if (!isCanceled(err)) this.failed(err, false);
    }
  }

  /** A choice or an undo failed: plain words, the detail in the tooltip,
   * and what follows (a fresh state, or offline until the stream is back). */
  private failed(err: unknown, refetch = true): void {
    this.table.pending = false;
    this.changed();
    const why = trouble(err);
    if (why === "offline") {
      this.goOffline(err);
      this.watch?.reconnect(); // reconnect now, and find out when it is back
      return;
    }
    setStatus(playerText(err), why === "stale" ? "info" : "error", errorText(err));
    if (refetch && (why === "stale" || why === "refused" || why === "not_your_turn")) void this.refetch();
  }

  /** True when a choice may be sent now. */
  canAct(): boolean {
    return !!this.creds && !!this.table.state && !this.table.pending && !this.table.offline;
  }

  /** Sends the picked option for the state on screen. */
  async choose(optionId: string): Promise<void> {
    const state = this.table.state;
    if (!this.canAct() || !state || !this.creds) return;
    this.table.pending = true;
    this.changed();
    try {
      const r = await play(api, { gameId: this.table.gameId, seat: this.creds.seat, token: this.creds.token }, state.seq, optionId);
      // The reply carries the new state; the stream brings it (and its log
      // lines) too.
      if (r.state) this.apply(r.state);
      setStatus("Choice accepted.", "ok");
    } catch (err) {
      this.failed(err);
    }
  }

  /** Gives our seat back (ReleaseSeat): it opens again in the lobby and
   * its token stops working. Returns true when the server took it. */
  async release(): Promise<boolean> {
    if (!this.creds) return false;
    try {
      await api.releaseSeat({ gameId: this.table.gameId, credentials: this.creds });
      return true;
    } catch (err) {
      setStatus(playerText(err), "error", errorText(err));
      return false;
    }
  }

  /** Takes back our own last choice. */
  async undo(): Promise<void> {
    const state = this.table.state;
    if (!this.canAct() || !state || !this.creds) return;
    this.table.pending = true;
    this.changed();
    try {
      const r = await api.undo({ gameId: this.table.gameId, credentials: this.creds, expectedSeq: state.seq });
      if (r.state) this.apply(r.state);
      this.addLog(["(You took back your last choice.)"]);
      setStatus("Undone.", "ok");
    } catch (err) {
      this.failed(err);
    }
  }
}
