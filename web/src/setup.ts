// The parts of a setup form every game shares: who takes a seat, the
// seed, and the turn clock (the kind, its times and what happens when time
// runs out).
import { create } from "@bufbuild/protobuf";
import { h } from "./dom";
import { ClockKind, ClockRulesSchema, TimeoutPolicy, type ClockRules } from "@xodus/client/gen/tabletop/v1/game_pb";

/** A "who takes this seat" select: human, AI (named `aiName`) or anyone. */
export function whoSelect(id: string, label: string, aiName: string, human: boolean): HTMLSelectElement {
  const who = h("select", { id, "aria-label": label },
    h("option", { value: "human" }, "Human"), h("option", { value: "ai" }, aiName), h("option", { value: "any" }, "Anyone"));
  who.value = human ? "human" : "ai";
  return who;
}

/** The clock part of the create form: the kind (none, Fischer, per move,
 * absolute), its times in seconds and what happens when time runs out. */
export function clockFields(): { el: HTMLElement; read: () => ClockRules | undefined | string } {
  const kind = h("select", { id: "clock-kind", "aria-label": "Clock" },
    h("option", { value: "none" }, "No clock"), h("option", { value: "fischer" }, "Fischer"),
    h("option", { value: "per_move" }, "Per move"), h("option", { value: "absolute" }, "Absolute"));
  const num = (id: string, label: string, value: string) => h("input", { type: "number", id, min: "0", max: "86400", value, "aria-label": label, class: "secs" });
  const initial = num("clock-initial", "Initial seconds", "300");
  const increment = num("clock-increment", "Increment seconds", "10");
  const cap = num("clock-cap", "Cap seconds (0: none)", "0");
  const perMove = num("clock-per-move", "Seconds per move", "60");
  const onTimeout = h("select", { id: "clock-timeout", "aria-label": "Out of time" },
    h("option", { value: "default" }, "game's default"), h("option", { value: "ai" }, "AI stands in"),
    h("option", { value: "skip" }, "turn skipped"), h("option", { value: "forfeit" }, "forfeit"));
  const lInitial = h("label", undefined, "initial s ", initial);
  const lIncrement = h("label", undefined, "+ s ", increment);
  const lCap = h("label", undefined, "cap s ", cap);
  const lPerMove = h("label", undefined, "s per move ", perMove);
  const lTimeout = h("label", undefined, "out of time: ", onTimeout);
  const sync = () => {
    const k = kind.value;
    lInitial.hidden = k !== "fischer" && k !== "absolute";
    lIncrement.hidden = lCap.hidden = k !== "fischer";
    lPerMove.hidden = k !== "per_move";
    lTimeout.hidden = k === "none";
  };
  kind.addEventListener("change", sync);
  sync();
  const secs = (i: HTMLInputElement, min: number): number | null => {
    const t = i.value.trim();
    if (!/^[0-9]+$/.test(t)) return null;
    const n = Number(t);
    return n >= min && n <= 86400 ? n : null;
  };
  const read = (): ClockRules | undefined | string => {
    const k = kind.value;
    if (k === "none") return undefined;
    const policy = { default: TimeoutPolicy.UNSPECIFIED, ai: TimeoutPolicy.AI_STAND_IN, skip: TimeoutPolicy.SKIP, forfeit: TimeoutPolicy.FORFEIT }[onTimeout.value] ?? TimeoutPolicy.UNSPECIFIED;
    if (k === "per_move") {
      const p = secs(perMove, 1);
      if (p === null) return "The time per move is 1 to 86400 seconds.";
      return create(ClockRulesSchema, { kind: ClockKind.PER_MOVE, perMoveSeconds: p, onTimeout: policy });
    }
    const i = secs(initial, 1);
    if (i === null) return "The initial time is 1 to 86400 seconds.";
    if (k === "absolute") return create(ClockRulesSchema, { kind: ClockKind.ABSOLUTE, initialSeconds: i, onTimeout: policy });
    const inc = secs(increment, 0);
    const c = secs(cap, 0);
    if (inc === null || c === null) return "The increment and the cap are 0 to 86400 seconds.";
    return create(ClockRulesSchema, { kind: ClockKind.FISCHER, initialSeconds: i, incrementSeconds: inc, capSeconds: c, onTimeout: policy });
  };
  return { el: h("div", { class: "clock-row" }, h("span", undefined, "Clock "), kind, lInitial, lIncrement, lCap, lPerMove, lTimeout), read };
}
/** The seed typed in a form: undefined when empty (a random game), null
 * when it is not a whole number that fits in 64 bits. */
export function parseSeed(text: string): bigint | undefined | null {
  const t = text.trim();
  if (t === "") return undefined;
  if (!/^[0-9]{1,20}$/.test(t)) return null;
  const n = BigInt(t);
  return n <= 0xffff_ffff_ffff_ffffn ? n : null;
}
