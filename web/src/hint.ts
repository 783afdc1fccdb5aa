// Advice on request, shared by every game: a "Hint" button in the decision
// panel (and Shift+H: h is an option's key) for a seated player with a
// decision, which asks the server (AskHint) for the best three of the
// seat's own options; the answer shows in the panel as a ranked list
// (rank, label, the search's estimate, its reason, all drawn as text), the
// advised option buttons are marked with their rank, and the places of the
// table they aim at (an X-ODUS system, a VII Legio sector...) are
// highlighted on the map. The advice goes once the game moves past the
// seq it was about. Refusals in player words (no adviser on the server,
// asked too soon, no decision now, no advice for this game); spectators and seats without a
// decision get the button off.
import { hintRefusal, retryAfterMs } from "@xodus/client";
import type { HintOption } from "@xodus/client/gen/tabletop/v1/service_pb";
import { errorText, playerText } from "./client";
import { h, replace } from "./dom";
import { isMyTurn, type MyOption } from "./options";
import type { GameStore, Table } from "./store";

/** A refused hint in player words (the server's text stays in the tooltip). */
export function hintError(err: unknown): string {
  switch (hintRefusal(err)) {
    case "no_agent": return "No AI adviser is running on this server: there is no hint to give.";
    case "too_soon": return `You asked a moment ago: wait ${Math.max(1, Math.ceil((retryAfterMs(err) ?? 2000) / 1000))} s before asking again.`;
    case "no_decision": return "You have no decision to take now: ask when it is your turn.";
    case "no_hint": return "The AI adviser has no advice to give here.";
    case "no_answer": return "The adviser did not answer in time: try again.";
    default: return playerText(err);
  }
}

/** An estimate as the reasons word it (two decimals, higher is better). */
function estimateText(e: number): string {
  return e.toFixed(2);
}

export class HintPanel {
  readonly el = h("div", { class: "advice-box" });
  private btn = h("button", {
    type: "button", id: "hint-ask", class: "advice-ask", "aria-keyshortcuts": "Shift+H",
    onclick: () => void this.ask(),
  });
  private error = h("p", { class: "advice-error", role: "alert", hidden: true });
  private list = h("ol", { class: "advice", "aria-label": "Advised options", hidden: true });
  /** The hint shown, with the targets of its options. */
  private hint?: { seq: bigint; options: { o: HintOption; target?: string }[] };
  private asking = false;
  /** Asked too soon: no hint before this time (performance.now()). */
  private waitUntil = 0;
  private waitTimer = 0;
  /** The seq the error was about (it goes when the game moves on). */
  private errorSeq?: bigint;
  private opts: MyOption[] = [];

  /** `changed` redraws the table (the marks on the options and the map). */
  constructor(private store: GameStore, private changed: () => void) {
    this.el.append(h("div", { class: "advice-row" }, this.btn), this.error, this.list);
    this.label();
  }

  destroy(): void {
    clearTimeout(this.waitTimer);
  }

  /** Follows the table: the advice goes once the game moved past its seq;
   * the button is on for a seated player with a decision. */
  update(t: Table, opts: MyOption[]): void {
    this.opts = opts;
    const seq = t.state?.seq;
    if (this.hint && (seq === undefined || seq > this.hint.seq || t.state?.outcome)) this.drop();
    if (this.errorSeq !== undefined && seq !== this.errorSeq) this.clearError();
    this.label();
  }

  /** The button's words and whether it may be pressed now. */
  private label(): void {
    const t = this.store.table;
    const seated = t.seat !== undefined;
    const mine = isMyTurn(t) && this.opts.length > 0;
    const waiting = performance.now() < this.waitUntil;
    this.btn.disabled = !seated || !mine || this.asking || waiting || t.offline;
    this.btn.title = !seated ? "Spectators cannot ask for advice"
      : !mine ? "Advice is for your own decision: ask when it is your turn"
        : waiting ? "A seat may ask for a hint every 2 s"
          : "Ask the AI for the best three options (Shift+H)";
    replace(this.btn, this.asking ? "Thinking…" : "Hint", this.asking ? null : h("kbd", undefined, "H"));
  }

  /** Asks for a hint (the button, or Shift+H). */
  async ask(): Promise<void> {
    if (this.btn.disabled) return;
    const asked = this.store.table.state?.seq;
    this.asking = true;
    this.clearError();
    this.label();
    try {
      const r = await this.store.askHint();
      const now = this.store.table.state?.seq;
      // The game moved on while the adviser thought: the hint is void.
      if (now !== undefined && r.seq < now) return;
      this.hint = { seq: r.seq, options: r.options.map((o) => ({ o, target: this.opts.find((m) => m.option.id === o.optionId)?.target })) };
      this.drawList();
    } catch (err) {
      this.say(hintError(err), errorText(err), asked);
      const wait = retryAfterMs(err);
      if (wait !== undefined) {
        this.waitUntil = performance.now() + wait;
        clearTimeout(this.waitTimer);
        this.waitTimer = window.setTimeout(() => this.label(), wait + 10);
      }
    } finally {
      this.asking = false;
      // A seat may ask every 2 s: the button waits as the server does.
      this.waitUntil = Math.max(this.waitUntil, performance.now() + 2000);
      clearTimeout(this.waitTimer);
      this.waitTimer = window.setTimeout(() => this.label(), this.waitUntil - performance.now() + 10);
      this.label();
      this.changed();
    }
  }

  /** Gives the focus back to the button (the panel was redrawn). */
  focus(): void {
    this.btn.focus({ preventScroll: true });
  }

  /** The places of the table the advice aims at, best first. */
  targets(): string[] {
    return (this.hint?.options ?? []).flatMap((x) => (x.target ? [x.target] : []));
  }

  /** Marks the advised options in the decision panel and their places on
   * the map (again after each redraw); `root` is the table. */
  mark(root: HTMLElement): void {
    for (const el of root.querySelectorAll(".advised, .advice-hl")) {
      el.classList.remove("advised", "advice-hl");
      el.removeAttribute("data-advice");
    }
    for (const el of root.querySelectorAll(".advice-rank")) el.remove();
    const options = this.hint?.options ?? [];
    options.forEach(({ o, target }, i) => {
      const rank = String(i + 1);
      const btn = root.querySelector<HTMLElement>(`.decision button.option[data-id="${CSS.escape(o.optionId)}"]`);
      if (btn) {
        btn.classList.add("advised");
        btn.dataset.advice = rank;
        const label = btn.querySelector(".label");
        btn.insertBefore(h("span", { class: "advice-rank", title: `Advised: number ${rank}` }, `★${rank}`), label);
      }
      if (!target) return;
      const q = CSS.escape(target);
      for (const el of root.querySelectorAll<HTMLElement | SVGElement>(`.col-left [data-hex="${q}"], .col-mid [data-hex="${q}"], .col-left [data-target="${q}"], .col-mid [data-target="${q}"]`)) {
        if (el.classList.contains("advice-hl")) continue;
        el.classList.add("advice-hl");
        el.setAttribute("data-advice", rank);
      }
    });
  }

  /** The advice as a ranked list: every piece of it a text node. */
  private drawList(): void {
    const options = this.hint?.options ?? [];
    replace(this.list, ...options.map(({ o, target }, i) =>
      h("li", { class: "advice-item", "data-id": o.optionId, "data-rank": i + 1, "data-aims": target },
        h("span", { class: "advice-rank-n" }, `${i + 1}.`), " ",
        h("span", { class: "advice-label" }, o.label), " ",
        h("span", { class: "advice-est", title: "The search's estimate for you (higher is better)" }, `est. ${estimateText(o.estimate)}`),
        target ? h("span", { class: "aim", "aria-hidden": "true" }, " ◎") : null,
        o.reason ? h("span", { class: "advice-reason", title: o.reason }, o.reason) : null)));
    this.list.hidden = options.length === 0;
  }

  private drop(): void {
    this.hint = undefined;
    replace(this.list);
    this.list.hidden = true;
  }

  private say(text: string, detail: string, seq: bigint | undefined): void {
    this.error.textContent = text;
    this.error.title = detail;
    this.error.hidden = false;
    this.errorSeq = seq;
  }

  private clearError(): void {
    this.error.hidden = true;
    this.error.textContent = "";
    this.errorSeq = undefined;
  }
}
