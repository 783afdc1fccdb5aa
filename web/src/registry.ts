// The games this page plays, by registered type, and their display names.
import type { GameUi } from "./games";
import { LEGIO } from "./legio/ui";
import { XODUS } from "./xodus/ui";

export const GAMES: GameUi[] = [XODUS, LEGIO];

export function gameUi(type: string): GameUi | undefined {
  // Games stored before game types existed are X-ODUS.
  return GAMES.find((g) => g.type === (type || "xodus"));
}

/** A game type's display name (its type when this page does not know it). */
export function gameName(type: string): string {
  return gameUi(type)?.name ?? type;
}
