// The games this page plays with a table of their own, by registered type,
// and their display names; any other game the server hosts gets the
// generic table (generic.ts).
import type { GameUi } from "./games";
import { genericUi, typeName } from "./generic";
import { LEGIO } from "./legio/ui";
import { XODUS } from "./xodus/ui";

export const GAMES: GameUi[] = [XODUS, LEGIO];

/** The game's own UI, when this page has one. */
export function gameUi(type: string): GameUi | undefined {
  // Games stored before game types existed are X-ODUS.
  return GAMES.find((g) => g.type === (type || "xodus"));
}

/** The UI a table of this type is played with: the game's own, else the
 * generic table. */
export function tableUi(type: string): GameUi {
  return gameUi(type) ?? genericUi(type || "xodus");
}

/** A game type's display name ("High Card" for "high_card" when this page
 * has no UI of its own for it). */
export function gameName(type: string): string {
  return gameUi(type)?.name ?? typeName(type);
}
