// Advice on request: asking, as a seat, for the best three options of the
// seat's own pending decision (AskHint), each with the AI search's
// estimate and a one-line reason, and what a refusal means (no decision
// now, no agent serving hints, asked too soon, no advice for this game or
// position, no answer in time). A hint
// is about the state at its seq: void once the game moved on.
import type { CallOptions } from "@connectrpc/connect";
import type { AskHintResponse } from "./gen/tabletop/v1/service_pb";
import type { GameClient } from "./connect";
import { Code, ConnectError } from "./errors";
import { credentials, type Seat } from "./seat";

/** How often a seat may ask for a hint, in ms (the server's limit). */
export const HINT_INTERVAL_MS = 2000;

/** Asks for advice as `seat`: up to three of its own options, best first
 * (`options`: option_id, label, estimate, reason), about the state at
 * `seq`. FAILED_PRECONDITION: the seat has no decision now, or no agent
 * serves hints; RESOURCE_EXHAUSTED: asked less than 2 s ago (see
 * `retryAfterMs`); UNAVAILABLE: the agent did not answer in time. See
 * `hintRefusal`. */
export function askHint(client: GameClient, seat: Seat, call?: CallOptions): Promise<AskHintResponse> {
  return client.askHint({ gameId: seat.gameId, credentials: credentials(seat) }, call);
}

/** Why AskHint refused (see `hintRefusal`). */
export type HintRefusal = "no_decision" | "no_agent" | "too_soon" | "no_hint" | "no_answer";

/** Why AskHint refused, for a front-end's words: the seat has no decision
 * now ("no_decision"), no AI agent serves hints on the server
 * ("no_agent"), the seat asked less than 2 s ago ("too_soon":
 * `retryAfterMs` says how long to wait), the agent has no advice here
 * ("no_hint": e.g. none for this game; its words follow "no hint: " in the
 * message), the agent did not answer in time ("no_answer": try again);
 * undefined for any other error. */
export function hintRefusal(err: unknown): HintRefusal | undefined {
  if (!(err instanceof ConnectError)) return undefined;
  switch (err.code) {
    case Code.ResourceExhausted:
      return "too_soon";
    case Code.Unavailable:
      // A server that cannot be reached at all is not a hint's refusal.
      return /agent|hint/i.test(err.rawMessage) ? "no_answer" : undefined;
    case Code.FailedPrecondition:
      if (/no AI agent serves hints/i.test(err.rawMessage)) return "no_agent";
      if (/^no hint/i.test(err.rawMessage)) return "no_hint";
      if (/no decision/i.test(err.rawMessage)) return "no_decision";
      return undefined;
    default:
      return undefined;
  }
}
