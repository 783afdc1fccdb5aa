// The gRPC-Web transport and the GameService client, plus what a failed
// call means for a player: plain words for the status line, and the
// technical text (gRPC code and server message) kept for a tooltip and
// the browser's console.
import { Code, ConnectError, createClient, type Client } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-web";
import { GameService } from "./gen/tabletop/v1/service_pb";

/** The API's address: the page's own origin, or `?server=URL`. */
export function serverUrl(): string {
  const fromQuery = new URLSearchParams(location.search).get("server");
  return fromQuery ?? location.origin;
}

export const api: Client<typeof GameService> = createClient(
  GameService,
  createGrpcWebTransport({ baseUrl: serverUrl() }),
);

/** The gRPC code of an error, or undefined when it is not a call error. */
export function errorCode(err: unknown): Code | undefined {
  return err instanceof ConnectError ? err.code : undefined;
}

/** "NOT_FOUND: no such game" style text for any error: the technical
 * detail, for tooltips and the console, not for the status line. */
export function errorText(err: unknown): string {
  const e = ConnectError.from(err);
  const code = Code[e.code] ?? String(e.code);
  const name = code.replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase();
  return `${name}: ${e.rawMessage}`;
}

/** What a failed call means for the player. */
export type Trouble =
  /** The game moved on before the choice arrived (ABORTED). */
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
 * back from the browser as UNKNOWN "Failed to fetch": that is "offline". */
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
      return /fetch|network|load failed|HTTP 5\d\d|ERR_/i.test(e.rawMessage) || e.cause instanceof TypeError ? "offline" : "other";
    default: return "other";
  }
}

/** Player words for an error. */
export function playerText(err: unknown): string {
  switch (trouble(err)) {
    case "stale": return "The game moved on; here is the new state.";
    case "offline": return offlineText();
    case "not_your_turn": return "It is not your turn.";
    case "refused": return "That move is not open any more; here is the current state.";
    case "seat_lost": return "This browser no longer holds the seat.";
    case "missing": return "There is no such game on the server.";
    case "busy": return "The server is busy; try again in a moment.";
    default: return "Something went wrong on the server; try again.";
  }
}

/** "Cannot reach the server", with a hint when the API is on another
 * origin (a server that does not allow this page's origin looks the same
 * as a server that is down). */
export function offlineText(): string {
  const other = new URL(serverUrl(), location.href).origin !== location.origin;
  return other
    ? `Cannot reach the server at ${serverUrl()} (down, or not allowing this page's origin); retrying…`
    : "Cannot reach the server; retrying…";
}

/** True when the error is our own cancellation (navigation, stop). */
export function isCanceled(err: unknown): boolean {
  return err instanceof ConnectError ? err.code === Code.Canceled : err instanceof DOMException && err.name === "AbortError";
}

export { Code };
