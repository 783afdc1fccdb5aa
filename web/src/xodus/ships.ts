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

/** A seat role from the lobby ("pirate_ship") as a name. */
export function roleName(cat: Catalog, role: string): string {
  return cat.nameById("ship", role);
}
