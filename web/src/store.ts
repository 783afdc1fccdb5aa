// The state store of one table: follows StreamGame (from the last seq seen,
// reconnecting after a network failure, with the seats' changes), keeps the
// latest GameState with its typed X-ODUS state, the game's lobby data and
// the event log, sends choices and undos, and tells the views when
// something changed. It knows no rule.
import { create } from "@bufbuild/protobuf";
import { anyUnpack } from "@bufbuild/protobuf/wkt";
import { api, Code, errorCode, errorText, isCanceled } from "./client";
import type { GameState, GameSummary, SeatCredentials } from "./gen/tabletop/v1/game_pb";
import { SeatCredentialsSchema } from "./gen/tabletop/v1/game_pb";
import { XodusStateSchema, type XodusState } from "./gen/xodus/v1/state_pb";
import { loadLog, saveLastSeq, saveLog } from "./session";
import { setStatus } from "./status";

export interface Table {
  gameId: string;
  /** The latest state, once the first message arrived. */
  state?: GameState;
  /** Its typed X-ODUS part. */
  xodus?: XodusState;
  /** The game's lobby data (seats and who holds them). */
  summary?: GameSummary;
  /** Our seat, when we play one. */
  seat?: number;
  /** The event log, oldest first. */
  log: string[];
  /** A choice or undo is on its way. */
  pending: boolean;
  /** The stream is connected. */
  live: boolean;
}

type Listener = (t: Table) => void;

export class GameStore {
  readonly table: Table;
  private readonly creds?: SeatCredentials;
  private readonly abort = new AbortController();
  private listeners: Listener[] = [];
  private frame = 0;
  private lastSeq: bigint;

  constructor(gameId: string, fromSeq: bigint, seat?: { seat: number; token: string }) {
    this.lastSeq = fromSeq;
    this.table = { gameId, log: seat ? loadLog(gameId) : [], pending: false, live: false };
    if (seat) {
      this.creds = create(SeatCredentialsSchema, seat);
      this.table.seat = seat.seat;
    }
  }

  subscribe(fn: Listener): void {
    this.listeners.push(fn);
  }

  /** Views are redrawn at most once a frame, however fast updates come. */
  private changed(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      for (const fn of this.listeners) fn(this.table);
    });
  }

  /** Starts following the game; returns when the game is over or stopped. */
  async run(onFatal: (message: string) => void): Promise<void> {
    let delay = 500;
    while (!this.abort.signal.aborted) {
      try {
        const stream = api.streamGame(
          { gameId: this.table.gameId, fromSeq: this.lastSeq, credentials: this.creds, seatUpdates: true },
          { signal: this.abort.signal },
        );
        for await (const msg of stream) {
          if (!this.table.live) {
            this.table.live = true;
            setStatus("Connected.", "ok");
          }
          delay = 500;
          const lines = msg.events.map((e) => e.summary).filter((x) => x);
          if (lines.length) this.addLog(lines);
          // The seats: in the snapshot, then after each change.
          if (msg.game) {
            this.table.summary = msg.game;
            this.changed();
          }
          if (msg.state) this.apply(msg.state);
        }
        // The stream ends after the update that carries the outcome.
        this.table.live = false;
        this.changed();
        if (this.table.state?.outcome) {
          void this.refreshSummary();
          return;
        }
      } catch (err) {
        this.table.live = false;
        this.changed();
        if (this.abort.signal.aborted || isCanceled(err)) return;
        const code = errorCode(err);
        if (code === Code.NotFound || code === Code.Unauthenticated || code === Code.InvalidArgument || code === Code.OutOfRange) {
          onFatal(errorText(err));
          return;
        }
        setStatus(`Connection lost (${errorText(err)}); retrying…`, "error");
      }
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 8000);
    }
  }

  stop(): void {
    this.abort.abort();
    cancelAnimationFrame(this.frame);
  }

  private apply(state: GameState): void {
    const prev = this.table.state;
    if (prev && state.seq < prev.seq) return;
    this.table.state = state;
    if (state.detail.case === "gameState") {
      this.table.xodus = anyUnpack(state.detail.value, XodusStateSchema) ?? this.table.xodus;
    }
    if (!prev || state.seq !== prev.seq) this.table.pending = false;
    this.lastSeq = state.seq;
    if (this.creds) saveLastSeq(this.table.gameId, state.seq);
    this.changed();
  }

  private addLog(lines: string[]): void {
    this.table.log.push(...lines);
    if (this.table.log.length > 2000) this.table.log.splice(0, this.table.log.length - 2000);
    if (this.creds) saveLog(this.table.gameId, this.table.log);
  }

  async refreshSummary(): Promise<void> {
    try {
      const r = await api.getView({ gameId: this.table.gameId, credentials: this.creds }, { signal: this.abort.signal });
      this.table.summary = r.game;
      this.changed();
    } catch (err) {
      if (!isCanceled(err)) setStatus(errorText(err), "error");
    }
  }

  /** Sends the picked option for the state on screen. */
  async choose(optionId: string): Promise<void> {
    const state = this.table.state;
    if (!this.creds || !state || this.table.pending) return;
    this.table.pending = true;
    this.changed();
    try {
      await api.submitChoice({
        gameId: this.table.gameId,
        credentials: this.creds,
        expectedSeq: state.seq,
        choice: { case: "optionId", value: optionId },
      });
      setStatus("Choice accepted.", "ok");
    } catch (err) {
      this.table.pending = false;
      this.changed();
      setStatus(errorCode(err) === Code.Aborted ? `The game moved on before your choice arrived (${errorText(err)})` : errorText(err), "error");
    }
  }

  /** Takes back our own last choice. */
  async undo(): Promise<void> {
    const state = this.table.state;
    if (!this.creds || !state || this.table.pending) return;
    this.table.pending = true;
    this.changed();
    try {
      await api.undo({ gameId: this.table.gameId, credentials: this.creds, expectedSeq: state.seq });
      this.addLog(["(You took back your last choice.)"]);
      setStatus("Undone.", "ok");
    } catch (err) {
      this.table.pending = false;
      this.changed();
      setStatus(errorText(err), "error");
    }
  }
}
