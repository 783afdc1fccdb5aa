// What a failed call means: the gRPC code, a technical line for logs and
// tooltips, and the kind of trouble a front-end reacts to (fetch anew,
// wait for the network, give up the seat...). No player words: those are
// the front-end's.
import { Code, ConnectError } from "@connectrpc/connect";

export { Code, ConnectError };

/** The gRPC code of an error, or undefined when it is not a call error. */
export function errorCode(err: unknown): Code | undefined {
  return err instanceof ConnectError ? err.code : undefined;
}

/** "NOT_FOUND: no such game" style text for any error: the technical
 * detail, for tooltips and logs, not for a player. */
export function errorText(err: unknown): string {
  const e = ConnectError.from(err);
  const code = Code[e.code] ?? String(e.code);
  const name = code.replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase();
  return `${name}: ${e.rawMessage}`;
}

/** What a failed call means for a front-end. */
export type Trouble =
  /** The game moved on before the choice arrived (ABORTED): show the new
   * state and let the user decide again; never resubmit by itself. */
  | "stale"
  /** The server cannot be reached (down, network, blocked origin). */
  | "offline"
  /** The seat does not hold the decision (PERMISSION_DENIED). */
  | "not_your_turn"
  /** The rules refuse it now (FAILED_PRECONDITION). */
  | "refused"
  /** The seat's token is no longer good (UNAUTHENTICATED). */
  | "seat_lost"
  /** No such game (NOT_FOUND). */
  | "missing"
  /** Too many requests (RESOURCE_EXHAUSTED). */
  | "busy"
  | "other";

/** The kind of trouble behind an error. A fetch that never got an answer
 * (server down, network gone, another origin not allowed by CORS) comes
 * back from a browser as UNKNOWN "Failed to fetch", and from Node as
 * UNKNOWN "fetch failed": that is "offline". */
export function trouble(err: unknown): Trouble {
  const e = ConnectError.from(err);
  switch (e.code) {
    case Code.Aborted: return "stale";
    case Code.Unavailable:
    case Code.DeadlineExceeded: return "offline";
    case Code.PermissionDenied: return "not_your_turn";
    case Code.FailedPrecondition: return "refused";
    case Code.Unauthenticated: return "seat_lost";
    case Code.NotFound: return "missing";
    case Code.ResourceExhausted: return "busy";
    case Code.Unknown:
    case Code.Internal:
      return /fetch|network|load failed|terminated|socket|HTTP 5\d\d|ERR_|ECONN/i.test(e.rawMessage) || e.cause instanceof TypeError ? "offline" : "other";
    default: return "other";
  }
}

/** True when the error is a cancellation (an aborted signal). */
export function isCanceled(err: unknown): boolean {
  return err instanceof ConnectError
    ? err.code === Code.Canceled
    : typeof err === "object" && err !== null && (err as { name?: unknown }).name === "AbortError";
}
