// The page's GameService client (the @xodus/client package over gRPC-Web,
// on the page's own origin or `?server=URL`), plus what a failed call means
// for a player: plain words for the status line; the technical text (gRPC
// code and server message) is kept for a tooltip and the browser's console.
import { connect, trouble, type GameClient } from "@xodus/client";

export { Code, errorCode, errorText, isCanceled, trouble, type Trouble } from "@xodus/client";

/** The API's address: the page's own origin, or `?server=URL`. */
export function serverUrl(): string {
  const fromQuery = new URLSearchParams(location.search).get("server");
  return fromQuery ?? location.origin;
}

export const api: GameClient = connect(serverUrl());

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
