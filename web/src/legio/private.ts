// What only this commander sees, drawn from its own `secrets` and nothing
// else: the hand of Exploration cards (each one's risk in words; a card an
// option plays or discards is picked here too), the Secret Objectives kept
// and on offer, the cards discarded face down, the X pile once seen. A
// spectator's state has no secrets, and this panel is not drawn.
import type { Catalog } from "../catalog";
import { h } from "../dom";
import type { LegioState } from "@xodus/client/gen/legio/v1/state_pb";
import { pickable, type Picks } from "./board";

function card(cat: Catalog, category: string, i: number, target: string | undefined, p: Picks): HTMLElement {
  const el = h("li", { class: "pcard", "data-card-id": cat.entry(category, i)?.id ?? String(i) },
    h("b", { class: "cname" }, cat.name(category, i)), h("span", { class: "ctext" }, cat.text(category, i)));
  return target ? pickable(el, target, p) : el;
}

export function drawPrivate(x: LegioState, cat: Catalog, p: Picks): HTMLElement | null {
  const s = x.secrets;
  if (x.viewerSeat === undefined || !s) return null;
  const part = (title: string, cls: string, items: HTMLElement[], empty: string) =>
    h("div", { class: `private-part ${cls}` }, h("h3", undefined, title), items.length ? h("ul", { class: "pcards" }, ...items) : h("p", { class: "hint" }, empty));
  return h("section", { class: "private", id: "private", "aria-label": "Your hand and objectives" },
    h("h2", undefined, "Yours alone"),
    part(`Hand (${s.hand.length})`, "hand", s.hand.map((i) => card(cat, "exploration", i, `card:${i}`, p)), "No card in hand."),
    s.offer.length ? part("Secret Objectives on offer: keep one", "offer", s.offer.map((i) => card(cat, "objective", i, `objective:${i}`, p)), "") : null,
    part(`Secret Objectives (${s.objectives.length})`, "objectives", s.objectives.map((i) => card(cat, "objective", i, undefined, p)), "None kept yet."),
    s.discarded.length ? part("Discarded face down", "discarded", s.discarded.map((i) => card(cat, "exploration", i, undefined, p)), "") : null,
    s.pileX && s.pileX.cards.length ? part("The X pile (you have seen it)", "xpile", s.pileX.cards.map((i) => card(cat, "extrasolar", i, `x:${i}`, p)), "") : null);
}
