// The table view: lays out the board, the mats, the tracks, the Combat
// board, the decision panel and the log for one game; redraws them from the
// store; routes clicks, map picks and number keys to the store (after a
// pick the options stay off until the new state is there and a moment has
// passed, so that a double click spends one choice); shows the end screen with the outcome, or a
// plain page when the game does not exist or is not X-ODUS.
import type { Catalog } from "./catalog";
import { humanize } from "./catalog";
import { drawBoard, type Placing } from "./board";
import { ClockRow, clockText } from "./clocks";
import { describeStep, drawCombat } from "./combat";
import { drawDecision, fitOptions } from "./decision";
import { h, replace } from "./dom";
import { LogView } from "./log";
import { drawMats } from "./mats";
import { byHex, myOptions, type MyOption } from "./options";
import { optionLanes } from "./orient";
import { ReplayPanel } from "./replay";
import { setStatus } from "./status";
import type { GameStore, Table } from "./store";
import { drawCorruption, drawDecks, drawSignals } from "./tracks";

/** How long after a pick the options stay off at least: longer than the
 * gap between the two clicks of a quick double click, whose second click
 * would otherwise land on the next decision's options. (A second click
 * the browser counts as such, `detail` 2, is ignored whenever it comes.) */
const ARM_MS = 300;

/** Display names of the games a server may host besides X-ODUS. */
export const GAME_NAMES: Record<string, string> = { xodus: "X-ODUS", legio: "VII Legio" };

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
  private clocks = new ClockRow();
  private replay?: ReplayPanel;
  private replayBox = h("div", { class: "replay-box" });
  private opts: MyOption[] = [];
  private decisionKey = "";
  private outcomeClosed = false;
  private ended = false;
  /** When the last pick was made (performance.now()), and the timer that
   * opens the options ARM_MS later. */
  private pickedAt = -Infinity;
  private armTimer = 0;
  private readonly onKey = (ev: KeyboardEvent) => this.key(ev);

  constructor(private store: GameStore, private cat: Catalog, private leave: () => void, private leaveSeat: () => Promise<void>) {
    this.el = h(
      "div",
      { class: "table" },
      this.info,
      this.replayBox,
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
    clearTimeout(this.armTimer);
    this.clocks.destroy();
    this.replay?.destroy();
  }

  /** True when a pick may be sent now. */
  private open(): boolean {
    return performance.now() - this.pickedAt >= ARM_MS && this.store.canAct();
  }

  /** A pick: the options are off for ARM_MS at least. */
  private picked(): void {
    this.pickedAt = performance.now();
    clearTimeout(this.armTimer);
    this.armTimer = window.setTimeout(() => this.render(this.store.table), ARM_MS + 5);
  }

  /** A plain page instead of the table (no such game, another game). */
  private endWith(title: string, text: string, cls: string): void {
    if (this.ended) return;
    this.ended = true;
    replace(this.el, h("section", { class: `notice ${cls}`, role: "alert" },
      h("h2", undefined, title), h("p", undefined, text),
      h("p", undefined, h("a", { href: "#/", class: "to-lobby" }, "← Back to the lobby"))));
  }

  private render(t: Table): void {
    if (t.missing) {
      return this.endWith("No such game", `There is no game “${t.gameId}” on this server: the link may be wrong, or the game ended and was deleted.`, "missing");
    }
    if (t.foreign) {
      const name = GAME_NAMES[t.foreign] ?? t.foreign;
      return this.endWith(`${name} game`, `Game ${t.gameId} plays ${name} (game type “${t.foreign}”). This page plays X-ODUS only for now.`, "foreign");
    }
    if (this.ended) return;
    const x = t.xodus;
    const st = t.state;
    this.opts = myOptions(t);
    const open = this.open();
    const seatText = t.seat !== undefined ? `You: seat ${t.seat}` : "Spectating";
    replace(
      this.info,
      h("button", { type: "button", class: "back", onclick: () => this.leave() }, "← Lobby"),
      h("span", { class: "gid" }, t.gameId),
      x ? h("span", undefined, `Round ${x.round} · ${humanize(x.phase || "")}`) : null,
      h("span", undefined, seatText),
      st ? h("span", { class: "seq" }, `seq ${st.seq}`) : null,
      h("span", { class: `live ${t.live ? "on" : "off"}` }, t.live ? "● live" : st?.outcome ? "■ ended" : "○ offline"),
      clockText(t.summary?.clock) ? h("span", { class: "clock-rules" }, `Clock: ${clockText(t.summary?.clock)}`) : null,
      st && (st.outcome || t.seat !== undefined) && st.seq > 0n
        ? h("button", { type: "button", id: "replay-open", onclick: () => this.toggleReplay() }, this.replay ? "Close replay" : "Replay")
        : null,
      t.seat !== undefined && !st?.outcome ? h("button", { type: "button", id: "leave-seat", onclick: () => this.confirmLeave() }, "Leave seat") : null,
      this.clocks.el,
    );
    this.clocks.update(st, t.summary?.clock, t.seat);
    document.body.dataset.seq = st ? st.seq.toString() : "";
    if (x) {
      replace(this.boardBox, drawBoard(x, this.cat, byHex(this.opts), {
        pickHex: (k) => this.pickHex(k),
        hoverHex: (k) => this.highlight(k),
      }, open, this.placing(t)));
      replace(this.matsBox, drawMats(x, this.cat, t.summary, t.seat));
      replace(this.tracksBox, drawCorruption(x, this.cat), h("div", { class: "tracks-row" }, drawSignals(x, this.cat), drawDecks(x, this.cat)));
      replace(this.combatBox, drawCombat(x, this.cat));
    }
    // The decision panel is rebuilt only when it changes, so focus stays;
    // who holds each seat is part of it.
    const seats = t.summary?.seats.map((s) => `${s.claimed ? 1 : 0}${s.claimedBy}${s.standIn ? 1 : 0}`).join(",") ?? "";
    const key = `${st?.seq}|${t.pending}|${t.offline}|${open}|${this.opts.length}|${st?.canUndo}|${seats}`;
    if (key !== this.decisionKey) {
      this.decisionKey = key;
      const hadFocus = !document.activeElement || document.activeElement === document.body || this.decisionBox.contains(document.activeElement);
      const panel = drawDecision(t, x, this.cat, this.opts, x ? describeStep(x, this.cat) : null, open, {
        choose: (o) => this.choose(o),
        undo: () => this.undo(),
        hover: (o) => this.hover(o),
      });
      replace(this.decisionBox, panel);
      fitOptions(panel);
      if (hadFocus && open) this.decisionBox.querySelector<HTMLButtonElement>("button.option")?.focus({ preventScroll: true });
    }
    this.log.update(t.log);
    this.renderOutcome(t);
  }

  /** Leaves the seat, after asking. */
  private confirmLeave(): void {
    const t = this.store.table;
    if (t.seat === undefined) return;
    if (!window.confirm(`Leave seat ${t.seat}? It opens again for someone else, and this browser forgets it. You go on watching.`)) return;
    void this.leaveSeat();
  }

  /** Opens or closes the replay panel. */
  private toggleReplay(): void {
    if (this.replay) {
      this.replay.destroy();
      this.replay = undefined;
      replace(this.replayBox);
    } else {
      this.replay = new ReplayPanel(this.store.table, this.store.credentials(), this.cat, () => this.toggleReplay());
      replace(this.replayBox, this.replay.el);
    }
    this.render(this.store.table);
  }

  /** The orientation decision's tile and each option's lanes, for the map. */
  private placing(t: Table): Placing | undefined {
    const st = t.xodus?.step?.step;
    if (st?.case !== "orientation" || !st.value.hex) return undefined;
    const options: Placing["options"] = [];
    for (const o of this.opts) {
      const lanes = optionLanes(t.xodus, this.cat, o);
      if (lanes !== undefined) options.push({ index: o.index, lanes });
    }
    return { hex: st.value.hex, name: this.cat.name("tile", st.value.tile), options };
  }

  private choose(o: MyOption): void {
    if (!this.open()) return;
    this.picked();
    void this.store.choose(o.option.id);
  }

  private undo(): void {
    if (!this.open()) return;
    this.picked();
    void this.store.undo();
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

  private hover(o: MyOption | undefined): void {
    this.highlight(o?.hexKey);
    for (const el of this.el.querySelectorAll(".orient-lanes.show")) el.classList.remove("show");
    if (o) this.el.querySelector(`.orient-lanes[data-index="${o.index}"]`)?.classList.add("show");
  }

  private highlight(hexKey: string | undefined): void {
    for (const el of this.el.querySelectorAll(".hl")) el.classList.remove("hl");
    if (!hexKey) return;
    for (const el of this.el.querySelectorAll(`[data-hex="${hexKey}"]`)) el.classList.add("hl");
  }

  private pickHex(hexKey: string): void {
    if (!this.open()) return;
    const here = this.opts.filter((o) => o.hexKey === hexKey);
    if (here.length === 1 && here[0]) {
      for (const el of this.el.querySelectorAll("button.option, button.undo")) (el as HTMLButtonElement).disabled = true;
      this.choose(here[0]);
    } else if (here.length > 1) {
      this.highlight(hexKey);
      this.decisionBox.querySelector<HTMLButtonElement>(`button.option[data-hex="${hexKey}"]`)?.focus();
      setStatus(`${here.length} options aim at (${hexKey}): pick one of the highlighted buttons.`, "info");
    }
  }

  private key(ev: KeyboardEvent): void {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const target = ev.target as HTMLElement | null;
    if (target && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName)) return;
    if (/^[0-9]$/.test(ev.key)) {
      const n = ev.key === "0" ? 10 : Number(ev.key);
      const o = this.opts[n - 1];
      // A held key repeats: only its first press picks.
      if (o && !ev.repeat && this.open()) {
        ev.preventDefault();
        this.choose(o);
      }
    } else if (ev.key === "u" || ev.key === "U") {
      if (this.store.table.state?.canUndo && !ev.repeat) this.undo();
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
