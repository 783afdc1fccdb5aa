// The pending decision as this page's user sees it: which options are
// theirs to pick, each with its typed choice (the game's own message,
// unpacked by its table) and the place on the table it aims at, if any
// (a key the table's map uses: "q,r" for an X-ODUS system, "sector:2" for
// a VII Legio sector...). Pure data, no DOM, no game rule.
import type { ChoiceOption } from "@xodus/client/gen/tabletop/v1/game_pb";
import type { Table } from "./store";

export interface MyOption {
  /** Position in the list (number key = index + 1). */
  index: number;
  option: ChoiceOption;
  /** The game's typed choice, when its table reads one. */
  typed?: unknown;
  /** The key of the place it aims at on the table, if any. */
  target?: string;
}

/** How a game's table reads an option: its typed choice and its target. */
export type OptionReader = (option: ChoiceOption) => { typed?: unknown; target?: string };

/** True when the pending decision waits on our seat. */
export function isMyTurn(t: Table): boolean {
  const d = t.state?.decision;
  return t.seat !== undefined && !!d && d.deciders.includes(t.seat) && !t.state?.outcome;
}

/** The options our seat may pick now (none when it is not our decision). */
export function myOptions(t: Table, read: OptionReader): MyOption[] {
  const d = t.state?.decision;
  if (!d || !isMyTurn(t)) return [];
  const seat = t.seat as number;
  const out: MyOption[] = [];
  for (const option of d.options) {
    if (option.seats.length && !option.seats.includes(seat)) continue;
    out.push({ index: out.length, option, ...read(option) });
  }
  return out;
}

/** Options grouped by the place they aim at. */
export function byTarget(opts: MyOption[]): Map<string, MyOption[]> {
  const m = new Map<string, MyOption[]>();
  for (const o of opts) {
    if (!o.target) continue;
    const list = m.get(o.target) ?? [];
    list.push(o);
    m.set(o.target, list);
  }
  return m;
}
