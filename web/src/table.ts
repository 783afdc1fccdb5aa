// The table view: lays out the board, the mats, the tracks, the Combat
// board, the decision panel and the log for one game; redraws them from the
// store; routes clicks, map picks and number keys to the store; shows the
// end screen with the outcome.
import type { Catalog } from "./catalog";
import { humanize } from "./catalog";
import { drawBoard } from "./board";
import { describeStep, drawCombat } from "./combat";
import { drawDecision } from "./decision";
import { h, replace } from "./dom";
import { LogView } from "./log";
import { drawMats } from "./mats";
import { byHex, myOptions, type MyOption } from "./options";
import { setStatus } from "./status";
import type { GameStore, Table } from "./store";
import { drawCorruption, drawDecks, drawSignals } from "./tracks";

export class TableView {
  readonly el: HTMLElement;
  private boardBox = h("div", { class: "board-box" });
  private matsBox = h("div", { class: "mats-box" });
  private tracksBox = h("div", { class: "tracks-box" });
  private combatBox = h("div", { class: "combat-box" });
  private decisionBox = h("div", { class: "decision-box" });
  private info = h("div", { class: "table-info" });
  private outcomeBox = h("div", { id: "outcome", class: "outcome", role: "dialog", "aria-modal": "false", hidden: true });
  private log = new LogView();
  private opts: MyOption[] = [];
  private decisionKey = "";
  private outcomeClosed = false;
  private readonly onKey = (ev: KeyboardEvent) => this.key(ev);

  constructor(private store: GameStore, private cat: Catalog, private leave: () => void) {
    this.el = h(
      "div",
      { class: "table" },
      this.info,
      h("div", { class: "col-left" }, this.matsBox),
      h("div", { class: "col-mid" }, this.boardBox, this.tracksBox),
      h("div", { class: "col-right" }, this.decisionBox, this.combatBox, this.log.el),
      this.outcomeBox,
    );
    store.subscribe((t) => this.render(t));
    document.addEventListener("keydown", this.onKey);
  }

  destroy(): void {
    document.removeEventListener("keydown", this.onKey);
  }

  private render(t: Table): void {
    const x = t.xodus;
    const st = t.state;
    this.opts = myOptions(t);
    const seatText = t.seat !== undefined ? `You: seat ${t.seat}` : "Spectating";
    replace(
      this.info,
      h("button", { type: "button", class: "back", onclick: () => this.leave() }, "← Lobby"),
      h("span", { class: "gid" }, t.gameId),
      x ? h("span", undefined, `Round ${x.round} · ${humanize(x.phase || "")}`) : null,
      h("span", undefined, seatText),
      st ? h("span", { class: "seq" }, `seq ${st.seq}`) : null,
      h("span", { class: `live ${t.live ? "on" : "off"}` }, t.live ? "● live" : st?.outcome ? "■ ended" : "○ offline"),
    );
    document.body.dataset.seq = st ? st.seq.toString() : "";
    if (x) {
      replace(this.boardBox, drawBoard(x, this.cat, byHex(this.opts), {
        pickHex: (k) => this.pickHex(k),
        hoverHex: (k) => this.highlight(k),
      }));
      replace(this.matsBox, drawMats(x, this.cat, t.summary, t.seat));
      replace(this.tracksBox, drawCorruption(x, this.cat), h("div", { class: "tracks-row" }, drawSignals(x, this.cat), drawDecks(x, this.cat)));
      replace(this.combatBox, drawCombat(x, this.cat));
    }
    // The decision panel is rebuilt only when it changes, so focus stays.
    const key = `${st?.seq}|${t.pending}|${this.opts.length}|${st?.canUndo}|${t.summary ? 1 : 0}`;
    if (key !== this.decisionKey) {
      this.decisionKey = key;
      const hadFocus = !document.activeElement || document.activeElement === document.body || this.decisionBox.contains(document.activeElement);
      replace(this.decisionBox, drawDecision(t, x, this.cat, this.opts, x ? describeStep(x, this.cat) : null, {
        choose: (o) => void this.store.choose(o.option.id),
        undo: () => void this.store.undo(),
        hover: (k) => this.highlight(k),
      }));
      if (hadFocus && !t.pending) this.decisionBox.querySelector<HTMLButtonElement>("button.option")?.focus({ preventScroll: true });
    }
    this.log.update(t.log);
    this.renderOutcome(t);
  }

  private renderOutcome(t: Table): void {
    const o = t.state?.outcome;
    if (!o || this.outcomeClosed) {
      this.outcomeBox.hidden = true;
      return;
    }
    if (!this.outcomeBox.hidden) return;
    replace(
      this.outcomeBox,
      h("h2", undefined, o.won ? "Victory!" : "Defeat"),
      h("p", { class: "cause" }, `${humanize(o.cause)} in round ${o.round}.`),
      h("div", { class: "outcome-buttons" },
        h("button", { type: "button", onclick: () => this.leave() }, "Back to the lobby"),
        h("button", { type: "button", onclick: () => { this.outcomeClosed = true; this.outcomeBox.hidden = true; } }, "Look at the board")),
    );
    this.outcomeBox.className = `outcome ${o.won ? "won" : "lost"}`;
    this.outcomeBox.hidden = false;
    this.outcomeBox.querySelector("button")?.focus();
    setStatus(o.won ? "The captains won." : "The captains lost.", "ok");
  }

  private highlight(hexKey: string | undefined): void {
    for (const el of this.el.querySelectorAll(".hl")) el.classList.remove("hl");
    if (!hexKey) return;
    for (const el of this.el.querySelectorAll(`[data-hex="${hexKey}"]`)) el.classList.add("hl");
  }

  private pickHex(hexKey: string): void {
    const here = this.opts.filter((o) => o.hexKey === hexKey);
    if (here.length === 1 && here[0]) {
      void this.store.choose(here[0].option.id);
    } else if (here.length > 1) {
      this.highlight(hexKey);
      this.decisionBox.querySelector<HTMLButtonElement>(`button.option[data-hex="${hexKey}"]`)?.focus();
      setStatus(`${here.length} options aim at ${hexKey}: pick one of the highlighted buttons.`, "info");
    }
  }

  private key(ev: KeyboardEvent): void {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const target = ev.target as HTMLElement | null;
    if (target && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName)) return;
    if (/^[0-9]$/.test(ev.key)) {
      const n = ev.key === "0" ? 10 : Number(ev.key);
      const o = this.opts[n - 1];
      if (o && !this.store.table.pending) {
        ev.preventDefault();
        void this.store.choose(o.option.id);
      }
    } else if (ev.key === "u" || ev.key === "U") {
      if (this.store.table.state?.canUndo) void this.store.undo();
    } else if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
      const buttons = [...this.decisionBox.querySelectorAll<HTMLButtonElement>("button.option")];
      const i = buttons.indexOf(document.activeElement as HTMLButtonElement);
      if (i >= 0) {
        ev.preventDefault();
        buttons[(i + (ev.key === "ArrowDown" ? 1 : buttons.length - 1)) % buttons.length]?.focus();
      }
    }
  }
}
