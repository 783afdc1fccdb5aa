// The gRPC-Web transport and the GameService client, plus the text shown
// for a failed call (its gRPC code and the server's message).
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

/** "NOT_FOUND: no such game" style text for any error. */
export function errorText(err: unknown): string {
  const e = ConnectError.from(err);
  const code = Code[e.code] ?? String(e.code);
  const name = code.replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase();
  return `${name}: ${e.rawMessage}`;
}

/** True when the error is our own cancellation (navigation, stop). */
export function isCanceled(err: unknown): boolean {
  return err instanceof ConnectError ? err.code === Code.Canceled : err instanceof DOMException && err.name === "AbortError";
}

export { Code };
