// Table talk: saying a line as a seat with Say (free text, a game's own
// signal packed in Any, or both) to the table, the team or one seat;
// muting a seat; the checks a front-end can make before sending (length,
// control characters) and when a refused line may be tried again. Hearing
// the talk is the watch's `talk` option (watch.ts), which resumes from the
// last talk_seq heard.
import type { CallOptions } from "@connectrpc/connect";
import type { Any } from "@bufbuild/protobuf/wkt";
import { TalkAudience, type TalkLine } from "./gen/tabletop/v1/game_pb";
import type { GameClient } from "./connect";
import { Code, ConnectError } from "./errors";
import { credentials, type Seat } from "./seat";

/** The most characters a line of talk may have (Unicode characters, as
 * the server counts them). */
export const TALK_MAX_CHARS = 280;

/** Who hears a line: the whole table (spectators too), the speaker's team
 * (cooperative games only; a competitive one refuses with
 * FAILED_PRECONDITION), or one seat (and the speaker). */
export type Audience = "table" | "team" | { seat: number };

export interface SayOptions {
  /** Who hears it (default: the table). */
  to?: Audience;
  /** A signal of the game's own, packed (X-ODUS: xodus.v1.XodusSignal;
   * VII Legio: legio.v1.LegioSignal), e.g. `anyPack(XodusSignalSchema, ...)`. */
  signal?: Any;
  /** The line states the speaker's plan (AI agents' intents). */
  intent?: boolean;
  call?: CallOptions;
}

/** The length of a text as the server counts it (characters, not UTF-16 units). */
export function talkLength(text: string): number {
  return [...text].length;
}

/** What is wrong with a text before it is sent ("too_long", "control": a
 * line break or another control character), or undefined when it may go. */
export function checkTalk(text: string): "too_long" | "control" | undefined {
  if (talkLength(text) > TALK_MAX_CHARS) return "too_long";
  // The server refuses Unicode's control characters (Cc): C0, DEL and C1.
  if (/[\u0000-\u001f\u007f-\u009f]/.test(text)) return "control";
  return undefined;
}

/** Says a line as `seat`: text, a signal, or both. Resolves to the line as
 * the server kept and delivered it. INVALID_ARGUMENT: text over 280
 * characters or with control characters, nothing to say, a signal the game
 * does not take; FAILED_PRECONDITION: a team line in a competitive game;
 * RESOURCE_EXHAUSTED: too many lines too fast (see `retryAfterMs`). */
export async function say(client: GameClient, seat: Seat, text: string, options: SayOptions = {}): Promise<TalkLine> {
  const to = options.to ?? "table";
  const r = await client.say(
    {
      gameId: seat.gameId,
      credentials: credentials(seat),
      audience: to === "table" ? TalkAudience.TABLE : to === "team" ? TalkAudience.TEAM : TalkAudience.SEAT,
      ...(typeof to === "object" ? { toSeat: to.seat } : {}),
      text,
      ...(options.signal ? { signal: options.signal } : {}),
      intent: options.intent ?? false,
    },
    options.call,
  );
  if (!r.line) throw new ConnectError("Say answered without the line", Code.Internal);
  return r.line;
}

/** Gives a signal of the game's own (with an optional line of text). */
export function signal(client: GameClient, seat: Seat, packed: Any, options: Omit<SayOptions, "signal"> & { text?: string } = {}): Promise<TalkLine> {
  return say(client, seat, options.text ?? "", { ...options, signal: packed });
}

/** Stops (or, with `muted` false, resumes) hearing `other` for `seat`:
 * its lines are no longer delivered to this seat. Resolves to the seats
 * this seat does not hear now. */
export async function muteSeat(client: GameClient, seat: Seat, other: number, muted = true, call?: CallOptions): Promise<number[]> {
  const r = await client.muteSeat({ gameId: seat.gameId, credentials: credentials(seat), seat: other, muted }, call);
  return r.muted;
}

/** After a line refused as too fast (RESOURCE_EXHAUSTED), how long to wait
 * before the next one, in ms, as the server's message says ("retry in
 * 1.4 s"); undefined for any other error. */
export function retryAfterMs(err: unknown): number | undefined {
  if (!(err instanceof ConnectError) || err.code !== Code.ResourceExhausted) return undefined;
  const m = /retry in ([\d.]+) ?s/.exec(err.rawMessage);
  return m ? Math.ceil(Number(m[1]) * 1000) : 2000;
}

/** Who a line was addressed to, as `Audience`. */
export function audienceOf(line: TalkLine): Audience {
  if (line.audience === TalkAudience.TEAM) return "team";
  if (line.audience === TalkAudience.SEAT && line.toSeat !== undefined) return { seat: line.toSeat };
  return "table";
}
