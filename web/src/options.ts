// The pending decision as this page's user sees it: which options are
// theirs to pick, each with its typed X-ODUS choice (for the hex it aims
// at, if any). Pure data, no DOM.
import { anyUnpack } from "@bufbuild/protobuf/wkt";
import type { ChoiceOption } from "./gen/tabletop/v1/game_pb";
import { XodusChoiceSchema, type XodusChoice } from "./gen/xodus/v1/choice_pb";
import { key } from "./hex";
import type { Table } from "./store";

export interface MyOption {
  /** Position in the list (number key = index + 1). */
  index: number;
  option: ChoiceOption;
  choice?: XodusChoice;
  /** "q,r" of the system it aims at, if it aims at one. */
  hexKey?: string;
}

/** True when the pending decision waits on our seat. */
export function isMyTurn(t: Table): boolean {
  const d = t.state?.decision;
  return t.seat !== undefined && !!d && d.deciders.includes(t.seat) && !t.state?.outcome;
}

/** The options our seat may pick now (none when it is not our decision). */
export function myOptions(t: Table): MyOption[] {
  const d = t.state?.decision;
  if (!d || !isMyTurn(t)) return [];
  const seat = t.seat as number;
  const out: MyOption[] = [];
  for (const option of d.options) {
    if (option.seats.length && !option.seats.includes(seat)) continue;
    const choice = option.detail ? anyUnpack(option.detail, XodusChoiceSchema) : undefined;
    const hexKey = choice?.hex ? key(choice.hex) : undefined;
    out.push({ index: out.length, option, choice, hexKey });
  }
  return out;
}

/** Options grouped by the hex they aim at. */
export function byHex(opts: MyOption[]): Map<string, MyOption[]> {
  const m = new Map<string, MyOption[]>();
  for (const o of opts) {
    if (!o.hexKey) continue;
    const list = m.get(o.hexKey) ?? [];
    list.push(o);
    m.set(o.hexKey, list);
  }
  return m;
}
