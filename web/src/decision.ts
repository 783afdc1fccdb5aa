// The decision panel: the pending decision's prompt, who decides (redrawn
// when seats change hands), and, when it is ours, its options as buttons
// with their keys (1-9, then a, b, c..., as the terminal keys them; the
// keys pick them; those aiming at a place of the table are marked and linked to
// it; a game may draw a picture in a button, as X-ODUS does for an
// orientation's lanes), in a list that scrolls inside the panel, plus Undo
// when the server says `can_undo`. The options are off while a choice is on its
// way, while the server cannot be reached, and for a moment after a pick,
// so that a double click spends one choice.
import { h } from "./dom";
import { Claimant } from "@xodus/client/gen/tabletop/v1/game_pb";
import { isMyTurn, type MyOption } from "./options";
import type { Table } from "./store";

export interface DecisionHandlers {
  choose(o: MyOption): void;
  undo(): void;
  hover(o: MyOption | undefined): void;
  /** A seat's display name ("Captain 1 (Pirate Ship)", "Commander 2"). */
  seatName(seat: number): string;
  /** A picture for an option's button, if the game draws one. */
  decorate?(o: MyOption): Element | null;
}

/** The keys of the options, in order: 1-9, then the letters, as the
 * terminal (`xodus play`, cli-client/src/ui/menu.rs) keys the same
 * options: without j and k (it moves with them), q (quit), u (Undo, here
 * too), x (leave) and y (yes, here too: the question before a costly
 * option). */
const KEYS = "123456789abcdefghilmnoprstvwz";

/** The key that picks the option at `index`, if it has one. */
export function optionKey(index: number): string | undefined {
  return KEYS[index];
}

/** The option index a key picks (-1 for none). */
export function keyIndex(key: string): number {
  return key.length === 1 ? KEYS.indexOf(key) : -1;
}

/** "Commander 2 (AI)", "Captain 1 (Pirate Ship, AI)": a name with a note. */
export function withNote(name: string, note: string): string {
  return name.endsWith(")") ? `${name.slice(0, -1)}, ${note})` : `${name} (${note})`;
}

/** Who sits in a seat, as the decision panel says it. */
export function seatHolder(t: Table, s: number): string {
  const info = t.summary?.seats[s];
  return s === t.seat ? "you" : info?.claimed ? (info.claimedBy === Claimant.AI || info.standIn ? "AI" : "human") : "nobody yet";
}

export function drawDecision(t: Table, opts: MyOption[], step: HTMLElement | null, armed: boolean, on: DecisionHandlers): HTMLElement {
  const d = t.state?.decision;
  const mine = isMyTurn(t);
  const open = armed && !t.pending && !t.offline;
  const panel = h("section", {
    id: "decision", class: `decision${mine ? " mine" : ""}`, "aria-label": "Decision",
    "data-seq": t.state ? t.state.seq.toString() : "", "data-mine": mine ? "1" : "0", "data-pending": t.pending ? "1" : "0",
    "data-kind": d?.kind ?? "", "data-armed": open ? "1" : "0",
  });
  if (!d || !t.state) {
    panel.append(h("p", undefined, "Loading the table…"));
    return panel;
  }
  if (t.state.outcome) {
    panel.append(h("h2", undefined, "Game over"), h("p", undefined, d.prompt));
    return panel;
  }
  const deciders = d.deciders.map((s) => withNote(on.seatName(s), seatHolder(t, s)));
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
  if (t.offline) panel.append(h("p", { class: "hint offline" }, "Cannot reach the server: the options come back when it answers again."));
  if (mine) {
    const list = h("ol", { class: "options", tabindex: -1, "aria-label": "Options" });
    const spend = (ev: Event, o: MyOption) => {
      // The second click of a double click is never a choice of its own.
      if ((ev as MouseEvent).detail > 1) return;
      // Off at once, before the next redraw: one choice per decision.
      for (const b of panel.querySelectorAll<HTMLButtonElement>("button.option, button.undo")) b.disabled = true;
      on.choose(o);
    };
    for (const o of opts) {
      const k = optionKey(o.index);
      const pic = on.decorate?.(o) ?? null;
      const btn = h("button", {
        type: "button", class: `option${o.target ? " aims" : ""}${pic ? " orient" : ""}`, "data-id": o.option.id, "data-index": o.index,
        "data-hex": o.target, "data-target": o.target, "data-key": k, disabled: !open, title: o.option.id,
        onclick: (ev: Event) => spend(ev, o),
        ondblclick: (ev: Event) => ev.preventDefault(),
        onmouseenter: () => on.hover(o), onmouseleave: () => on.hover(undefined),
        onfocus: () => on.hover(o), onblur: () => on.hover(undefined),
      }, k ? h("kbd", undefined, k) : null,
      pic,
      h("span", { class: "label" }, o.option.label),
      o.target ? h("span", { class: "aim", "aria-hidden": "true" }, " ◎") : null);
      list.append(h("li", undefined, btn));
    }
    panel.append(list, h("p", { class: "more", hidden: true, "aria-hidden": "true" }));
    if (opts.length === 0) panel.append(h("p", undefined, "No option is open to your seat."));
  } else if (t.seat === undefined) {
    panel.append(h("p", { class: "hint" }, "You are watching."));
  }
  if (t.state.canUndo && t.seat !== undefined) {
    panel.append(h("button", { type: "button", class: "undo", id: "undo", disabled: !open, onclick: () => on.undo(), title: "Take back your last choice (U)" }, "↶ Undo"));
  }
  return panel;
}

/** Says how many options are below the visible part of a long list (the
 * list scrolls, with a visible scrollbar), again when the list scrolls or
 * changes size. Returns a function that stops following it. */
export function fitOptions(panel: Element): () => void {
  const list = panel.querySelector<HTMLElement>("ol.options");
  const more = panel.querySelector<HTMLElement>("p.more");
  if (!list || !more) return () => {};
  const update = () => {
    const box = list.getBoundingClientRect();
    const below = [...list.querySelectorAll("li")].filter((li) => li.getBoundingClientRect().bottom > box.bottom + 2).length;
    more.hidden = below === 0;
    more.textContent = below ? `▾ ${below} more option${below > 1 ? "s" : ""} below: scroll the list` : "";
  };
  list.addEventListener("scroll", update, { passive: true });
  const watch = new ResizeObserver(update);
  watch.observe(list);
  update();
  return () => watch.disconnect();
}

/** Scrolls the options list (only the list, not the page) so that `btn`
 * shows whole in it. */
export function revealInList(btn: HTMLElement): void {
  const list = btn.closest<HTMLElement>("ol.options");
  if (!list) return;
  const l = list.getBoundingClientRect();
  const b = btn.getBoundingClientRect();
  if (b.top < l.top) list.scrollTop -= l.top - b.top;
  else if (b.bottom > l.bottom) list.scrollTop += b.bottom - l.bottom;
}

/** Focuses an option as the keyboard's selection, and brings it into
 * view: in the list, and on the page. */
export function selectOption(btn: HTMLElement): void {
  btn.focus({ preventScroll: true });
  revealInList(btn);
  btn.scrollIntoView({ block: "nearest", inline: "nearest" });
}
