// Seats and choices: claiming a seat (its secret token), the credentials
// sent with every request made as that seat, and playing a choice with
// SubmitChoice and the seq the user decided on.
import { create } from "@bufbuild/protobuf";
import type { CallOptions } from "@connectrpc/connect";
import { Claimant, SeatCredentialsSchema, type SeatCredentials } from "./gen/tabletop/v1/game_pb";
import type { SubmitChoiceResponse } from "./gen/tabletop/v1/service_pb";
import type { GameClient } from "./connect";

/** A seat this client holds: keep the token secret (out of URLs and logs). */
export interface Seat {
  gameId: string;
  seat: number;
  token: string;
}

/** The credentials of a seat, as every request made as that seat sends them. */
export function credentials(seat: Pick<Seat, "seat" | "token">): SeatCredentials {
  return create(SeatCredentialsSchema, { seat: seat.seat, token: seat.token });
}

/** Claims a seat of a game (as a human unless told). Calling it again
 * with the token already held (`token`) takes the seat back after a
 * disconnect. FAILED_PRECONDITION: someone else holds it;
 * PERMISSION_DENIED: the seat is not open to that claimant. */
export async function claimSeat(
  client: GameClient,
  gameId: string,
  seat: number,
  options: { claimant?: Claimant; token?: string; call?: CallOptions } = {},
): Promise<Seat> {
  const r = await client.claimSeat(
    { gameId, seat, claimant: options.claimant ?? Claimant.HUMAN, ...(options.token ? { token: options.token } : {}) },
    options.call,
  );
  return { gameId, seat, token: r.token };
}

/** What to play: an option's id (`ChoiceOption.id`), or the option as JSON
 * (`ChoiceOption.payload_json`). */
export type ChoicePick = { optionId: string } | { choiceJson: string };

/** Plays one option for `seat` on the state whose seq is `expectedSeq` (the
 * state the user looked at). The answer comes once the choice is stored and
 * carries the new state as that seat sees it. ABORTED (`trouble` "stale"):
 * something was accepted since; fetch the new state and decide again, never
 * resubmit by itself. The same request sent twice is safe: the second gets
 * ABORTED. This is what a browser uses to play, since gRPC-Web cannot carry
 * the bidirectional Play stream. */
export function play(client: GameClient, seat: Seat, expectedSeq: bigint, pick: string | ChoicePick, call?: CallOptions): Promise<SubmitChoiceResponse> {
  const p: ChoicePick = typeof pick === "string" ? { optionId: pick } : pick;
  return client.submitChoice(
    {
      gameId: seat.gameId,
      credentials: credentials(seat),
      expectedSeq,
      choice: "optionId" in p ? { case: "optionId", value: p.optionId } : { case: "choiceJson", value: p.choiceJson },
    },
    call,
  );
}
