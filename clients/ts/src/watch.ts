// Watching a game: StreamGame from a seq, resumed from the last seq seen
// whenever the stream drops (a snapshot there, then everything missed,
// never a gap), with a growing pause while the server cannot be reached,
// until the game is over or the watch is stopped; with `talk`, the table
// talk too, resumed from the last talk_seq heard (no line twice).
import type { StreamGameResponse } from "./gen/tabletop/v1/service_pb";
import type { GameClient } from "./connect";
import { credentials, type Seat } from "./seat";
import { Code, ConnectError, isCanceled } from "./errors";

export interface WatchOptions {
  /** The seq to start from: 0 for the whole history, or the last seq seen
   * (a seat resuming after a reload). Beyond the game's seq: OUT_OF_RANGE. */
  fromSeq?: bigint;
  /** Watch as this seat (its view, `viewer_seat` set); else as a spectator. */
  seat?: Pick<Seat, "seat" | "token">;
  /** Also follow who holds the seats (`StreamGameResponse.game`). */
  seatUpdates?: boolean;
  /** Also hear the table talk the viewer may hear (`StreamGameResponse.talk`):
   * with the update of the seq each line was said at, or in a message of
   * its own (no state) when said live. */
  talk?: boolean;
  /** With `talk`: the last talk_seq already heard (0: the game's talk from
   * its start comes after the opening snapshot). */
  fromTalkSeq?: bigint;
  /** Stops the watch: the iteration then ends quietly. */
  signal?: AbortSignal;
  /** The first pause before reopening a dropped stream, in ms (500); it
   * doubles after each failure up to `maxDelayMs` (8000), and starts again
   * once a message came through. */
  firstDelayMs?: number;
  maxDelayMs?: number;
  /** Called when a stream dropped and will be reopened: with the error, or
   * with undefined after `reconnect()`. */
  onDrop?: (err: unknown) => void;
}

/** A call error after which watching again cannot help (no such game, a
 * seat token no longer good, a request the server will always refuse). */
export function isFatal(err: unknown): boolean {
  if (!(err instanceof ConnectError)) return false;
  return [Code.NotFound, Code.Unauthenticated, Code.PermissionDenied, Code.InvalidArgument, Code.OutOfRange].includes(err.code);
}

/** Follows one game. Iterate it (`for await`) for every StreamGameResponse:
 * the opening snapshot, one message per history entry (entry, events, the
 * state after it), with `seatUpdates`, seat messages, and with `talk`,
 * the lines of talk (`msg.talk`, in talk_seq order, each once). After a drop it
 * reopens the stream from `lastSeq` by itself, so the messages after a
 * resume's snapshot carry exactly the entries missed. The iteration ends
 * after the message whose state has the outcome, or when stopped; it throws
 * a fatal error (see `isFatal`). */
export class GameWatch implements AsyncIterable<StreamGameResponse> {
  private seq: bigint;
  private talkSeq: bigint;
  private attempt?: AbortController;
  private over = false;

  constructor(private readonly client: GameClient, readonly gameId: string, private readonly options: WatchOptions = {}) {
    this.seq = options.fromSeq ?? 0n;
    this.talkSeq = options.fromTalkSeq ?? 0n;
  }

  /** The talk_seq of the last line of talk received (where a resume of
   * the talk starts). */
  get lastTalkSeq(): bigint {
    return this.talkSeq;
  }

  /** The seq of the last state received (where a resume starts). */
  get lastSeq(): bigint {
    return this.seq;
  }

  /** True once the state with the outcome came through. */
  get finished(): boolean {
    return this.over;
  }

  /** Drops the current stream and reopens it now from `lastSeq` (after a
   * failed call that suggests the connection is gone). */
  reconnect(): void {
    this.attempt?.abort();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<StreamGameResponse, void, undefined> {
    const stop = this.options.signal;
    const first = this.options.firstDelayMs ?? 500;
    const max = this.options.maxDelayMs ?? 8000;
    let delay = first;
    while (!stop?.aborted) {
      const attempt = new AbortController();
      this.attempt = attempt;
      const stopAttempt = () => attempt.abort();
      stop?.addEventListener("abort", stopAttempt);
      try {
        const stream = this.client.streamGame(
          {
            gameId: this.gameId,
            fromSeq: this.seq,
            seatUpdates: this.options.seatUpdates ?? false,
            talk: this.options.talk ?? false,
            fromTalkSeq: this.talkSeq,
            ...(this.options.seat ? { credentials: credentials(this.options.seat) } : {}),
          },
          { signal: attempt.signal },
        );
        for await (const msg of stream) {
          delay = first;
          if (msg.state && msg.state.seq >= this.seq) this.seq = msg.state.seq;
          if (msg.state?.outcome) this.over = true;
          if (msg.talk.length) {
            // A resumed stream starts after the last line heard; a line
            // already heard is never handed out twice.
            msg.talk = msg.talk.filter((l) => l.talkSeq > this.talkSeq);
            for (const l of msg.talk) this.talkSeq = l.talkSeq;
            if (!msg.talk.length && !msg.state && !msg.game) continue;
          }
          yield msg;
        }
        // The stream ends after the state with the outcome; a stream
        // closed otherwise (a server going away) is reopened.
        if (this.over) return;
        this.options.onDrop?.(new ConnectError("the stream closed before the game ended", Code.Unavailable));
      } catch (err) {
        if (stop?.aborted) return;
        if (attempt.signal.aborted && isCanceled(err)) {
          // Our own reconnect(): at once.
          this.options.onDrop?.(undefined);
          continue;
        }
        if (isFatal(err)) throw err;
        this.options.onDrop?.(err);
      } finally {
        stop?.removeEventListener("abort", stopAttempt);
      }
      await pause(delay, stop);
      delay = Math.min(Math.max(delay, first / 2) * 2, max);
    }
  }
}

/** Waits `ms`, or less when `signal` aborts. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done);
  });
}

/** Watches a game (see `GameWatch`). */
export function watch(client: GameClient, gameId: string, options: WatchOptions = {}): GameWatch {
  return new GameWatch(client, gameId, options);
}
