// Connecting: a GameService client over gRPC-Web (Connect-ES), the one
// protocol both a browser and Node can speak to the server.
import { createClient, type Client, type Interceptor } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-web";
import { GameService } from "./gen/tabletop/v1/service_pb";

/** The server's API: every GameService call, typed. */
export type GameClient = Client<typeof GameService>;

export interface ConnectOptions {
  /** The fetch to use (default: the global one; Node 18+ and browsers have it). */
  fetch?: typeof globalThis.fetch;
  /** Connect-ES interceptors (headers, logging). */
  interceptors?: Interceptor[];
}

/** A client of the server at `baseUrl` ("http://127.0.0.1:50051", or a
 * page's own origin). A page from another origin needs the server started
 * with `--cors-origin` naming it. */
export function connect(baseUrl: string, options: ConnectOptions = {}): GameClient {
  return createClient(
    GameService,
    createGrpcWebTransport({
      baseUrl,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.interceptors ? { interceptors: options.interceptors } : {}),
    }),
  );
}
