// The decision panel: the pending decision's prompt, who decides, and, when
// it is ours, its options as numbered buttons (number keys pick them; those
// aiming at a system are marked and linked to the map), plus Undo when the
// server says `can_undo`.
import type { Catalog } from "./catalog";
import { h } from "./dom";
import { Claimant } from "./gen/tabletop/v1/game_pb";
import type { XodusState } from "./gen/xodus/v1/state_pb";
import { isMyTurn, type MyOption } from "./options";
import { shipName } from "./ships";
import type { Table } from "./store";

export interface DecisionHandlers {
  choose(o: MyOption): void;
  undo(): void;
  hover(hexKey: string | undefined): void;
}

export function drawDecision(t: Table, x: XodusState | undefined, cat: Catalog, opts: MyOption[], step: HTMLElement | null, on: DecisionHandlers): HTMLElement {
  const d = t.state?.decision;
  const mine = isMyTurn(t);
  const panel = h("section", {
    id: "decision", class: `decision${mine ? " mine" : ""}`, "aria-label": "Decision",
    "data-seq": t.state ? t.state.seq.toString() : "", "data-mine": mine ? "1" : "0", "data-pending": t.pending ? "1" : "0",
  });
  if (!d || !t.state) {
    panel.append(h("p", undefined, "Loading the table…"));
    return panel;
  }
  if (t.state.outcome) {
    panel.append(h("h2", undefined, "Game over"), h("p", undefined, d.prompt));
    return panel;
  }
  const deciders = d.deciders.map((s) => {
    const sh = x?.ships.find((v) => v.seat === s);
    const name = sh ? shipName(cat, sh.kind) : `seat ${s}`;
    const info = t.summary?.seats[s];
    const who = s === t.seat ? "you" : info?.claimed ? (info.claimedBy === Claimant.AI || info.standIn ? "AI" : "human") : "nobody yet";
    return `${name} (seat ${s}, ${who})`;
  });
  panel.append(h("h2", undefined, mine ? "Your decision" : `Waiting for ${deciders.join(", ")}`), h("p", { class: "prompt" }, d.prompt));
  const others = d.deciders.filter((s) => s !== t.seat);
  if (mine && others.length) {
    // Who else may answer: the first answer counts, and the AI captains
    // leave such a decision to a human for a few seconds.
    const isAi = (s: number) => t.summary?.seats[s]?.claimedBy === Claimant.AI || !!t.summary?.seats[s]?.standIn;
    const names = deciders.filter((_, i) => d.deciders[i] !== t.seat).join(", ");
    const text = others.every(isAi) ? `Shared with ${names}: they wait a few seconds for you.` : `Shared with ${names}: the first answer counts.`;
    panel.append(h("p", { class: "hint shared" }, text));
  }
  if (step) panel.append(step);
  if (mine) {
    const list = h("ol", { class: "options" });
    for (const o of opts) {
      const n = o.index + 1;
      const btn = h("button", {
        type: "button", class: `option${o.hexKey ? " aims" : ""}`, "data-id": o.option.id, "data-index": o.index,
        "data-hex": o.hexKey, disabled: t.pending, title: o.option.id,
        onclick: () => on.choose(o),
        onmouseenter: () => on.hover(o.hexKey), onmouseleave: () => on.hover(undefined),
        onfocus: () => on.hover(o.hexKey), onblur: () => on.hover(undefined),
      }, n <= 10 ? h("kbd", undefined, String(n % 10)) : null, o.option.label, o.hexKey ? h("span", { class: "aim", "aria-hidden": "true" }, " ◎") : null);
      list.append(h("li", undefined, btn));
    }
    panel.append(list);
    if (opts.length === 0) panel.append(h("p", undefined, "No option is open to your seat."));
  } else if (t.seat === undefined) {
    panel.append(h("p", { class: "hint" }, "You are watching."));
  }
  if (t.state.canUndo && t.seat !== undefined) {
    panel.append(h("button", { type: "button", class: "undo", id: "undo", disabled: t.pending, onclick: () => on.undo(), title: "Take back your last choice (U)" }, "↶ Undo"));
  }
  return panel;
}
