// Ship names and seat colours, shared by the board, the mats and the lobby.
import { enumSlug, type Catalog } from "../catalog";
import { ShipKindSchema, type ShipKind } from "@xodus/client/gen/xodus/v1/state_pb";

const COLORS = ["#e8a33d", "#4fb3e8", "#c77dff", "#6fdc8c", "#ff6f91", "#f5f56c"];

export function seatColor(seat: number): string {
  return COLORS[seat % COLORS.length] as string;
}

export function shipName(cat: Catalog, kind: ShipKind): string {
  return cat.nameById("ship", enumSlug(ShipKindSchema, kind));
}

/** A seat as the engine's labels and log name it: "Captain 1 (Pirate
 * Ship)" (its seat number, as the engine counts), "Captain 1" while its
 * ship is unknown. */
export function captainName(seat: number, ship: string | undefined): string {
  return ship ? `Captain ${seat} (${ship})` : `Captain ${seat}`;
}

/** A seat role from the lobby ("pirate_ship") as a name. */
export function roleName(cat: Catalog, role: string): string {
  return cat.nameById("ship", role);
}
