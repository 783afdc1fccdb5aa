// The table shell, shared by every game: the info bar (lobby, game, seat,
// live or offline, clock rules, replay, leave seat), the seat clocks, the
// decision panel, the log, the replay panel and the end screen; it mounts
// the game's own table (GameTable: its board and panels) once the first
// state says which game this is, redraws everything from the store, and
// routes clicks, picks on the table and number keys to the store (after a
// pick the options stay off until the new state is there and a moment has
// passed, so that a double click spends one choice). A plain page says so
// when the game does not exist or is not one this page plays.
import { loadCatalog, type Catalog } from "./catalog";
import { errorText, playerText } from "./client";
import { ClockRow, clockText } from "./clocks";
import { drawDecision, fitOptions } from "./decision";
import { h, replace } from "./dom";
import type { GameTable, GameUi } from "./games";
import { LogView } from "./log";
import { myOptions, type MyOption } from "./options";
import { gameName, gameUi } from "./registry";
import { ReplayPanel } from "./replay";
import { setStatus } from "./status";
import type { GameStore, Table } from "./store";

/** How long after a pick the options stay off at least: longer than the
 * gap between the two clicks of a quick double click, whose second click
 * would otherwise land on the next decision's options. (A second click
 * the browser counts as such, `detail` 2, is ignored whenever it comes.) */
const ARM_MS = 300;

export class TableShell {
  readonly el: HTMLElement;
  private colLeft = h("div", { class: "col-left" });
  private colMid = h("div", { class: "col-mid" });
  private colRight = h("div", { class: "col-right" });
  private decisionBox = h("div", { class: "decision-box" });
  private info = h("div", { class: "table-info" });
  private outcomeBox = h("div", { id: "outcome", class: "outcome", role: "dialog", "aria-modal": "false", hidden: true });
  private log = new LogView();
  private clocks = new ClockRow();
  private replay?: ReplayPanel;
  private replayBox = h("div", { class: "replay-box" });
  private ui?: GameUi;
  private cat?: Catalog;
  private game?: GameTable;
  private mounting = false;
  private opts: MyOption[] = [];
  private decisionKey = "";
  private outcomeClosed = false;
  private ended = false;
  /** When the last pick was made (performance.now()), and the timer that
   * opens the options ARM_MS later. */
  private pickedAt = -Infinity;
  private armTimer = 0;
  private readonly onKey = (ev: KeyboardEvent) => this.key(ev);

  constructor(private store: GameStore, private leave: () => void, private leaveSeat: () => Promise<void>) {
    this.colRight.append(this.decisionBox, this.log.el);
    this.el = h("div", { class: "table" }, this.info, this.replayBox, this.colLeft, this.colMid, this.colRight, this.outcomeBox);
    store.subscribe((t) => this.render(t));
    document.addEventListener("keydown", this.onKey);
  }

  destroy(): void {
    document.removeEventListener("keydown", this.onKey);
    clearTimeout(this.armTimer);
    this.clocks.destroy();
    this.replay?.destroy();
    this.game?.destroy?.();
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

  /** Mounts the game's table once its type is known and its catalog is in. */
  private mount(t: Table): void {
    if (this.mounting || !t.gameType) return;
    const ui = gameUi(t.gameType);
    if (!ui) return;
    this.mounting = true;
    loadCatalog(ui.type).then((cat) => {
      this.ui = ui;
      this.cat = cat;
      this.game = ui.newTable(cat, { pick: (k) => this.pick(k), hover: (k) => this.highlight(k) });
      this.el.classList.add(`game-${ui.type}`);
      this.colLeft.replaceChildren(...this.game.left);
      this.colMid.replaceChildren(...this.game.mid);
      this.colRight.replaceChildren(this.decisionBox, ...this.game.right, this.log.el);
      document.title = `${ui.name} — ${t.gameId}`;
      this.decisionKey = "";
      this.render(this.store.table);
    }, (err) => {
      this.mounting = false;
      setStatus(playerText(err), "error", errorText(err));
      window.setTimeout(() => this.render(this.store.table), 2000);
    });
  }

  private render(t: Table): void {
    if (t.missing) {
      return this.endWith("No such game", `There is no game “${t.gameId}” on this server: the link may be wrong, or the game ended and was deleted.`, "missing");
    }
    if (t.foreign) {
      const name = gameName(t.foreign);
      return this.endWith(`${name} game`, `Game ${t.gameId} plays ${name} (game type “${t.foreign}”), which this page does not play.`, "foreign");
    }
    if (this.ended) return;
    if (!this.game) this.mount(t);
    const ui = this.ui;
    const cat = this.cat;
    const game = this.game;
    const st = t.state;
    this.opts = ui && game ? myOptions(t, ui.readOption) : [];
    const open = this.open();
    const seatText = t.seat !== undefined ? `You: seat ${t.seat}` : "Spectating";
    replace(
      this.info,
      h("button", { type: "button", class: "back", onclick: () => this.leave() }, "← Lobby"),
      h("span", { class: "gid" }, t.gameId),
      ui ? h("span", { class: "gtype" }, ui.name) : null,
      game ? h("span", { class: "where" }, game.where(t)) : null,
      h("span", { class: "seat-text" }, seatText),
      st ? h("span", { class: "seq" }, `seq ${st.seq}`) : null,
      h("span", { class: `live ${t.live ? "on" : "off"}` }, t.live ? "● live" : st?.outcome ? "■ ended" : "○ offline"),
      clockText(t.summary?.clock) ? h("span", { class: "clock-rules" }, `Clock: ${clockText(t.summary?.clock)}`) : null,
      st && game && (st.outcome || t.seat !== undefined) && st.seq > 0n
        ? h("button", { type: "button", id: "replay-open", onclick: () => this.toggleReplay() }, this.replay ? "Close replay" : "Replay")
        : null,
      t.seat !== undefined && !st?.outcome ? h("button", { type: "button", id: "leave-seat", onclick: () => this.confirmLeave() }, "Leave seat") : null,
      this.clocks.el,
    );
    this.clocks.update(st, t.summary?.clock, t.seat, (s) => this.seatName(s));
    document.body.dataset.seq = st ? st.seq.toString() : "";
    if (game && t.detail) game.render(t, this.opts, open);
    // The decision panel is rebuilt only when it changes, so focus stays;
    // who holds each seat is part of it.
    const seats = t.summary?.seats.map((s) => `${s.claimed ? 1 : 0}${s.claimedBy}${s.standIn ? 1 : 0}`).join(",") ?? "";
    const key = `${st?.seq}|${t.pending}|${t.offline}|${open}|${this.opts.length}|${st?.canUndo}|${seats}|${!!game}`;
    if (key !== this.decisionKey) {
      this.decisionKey = key;
      const hadFocus = !document.activeElement || document.activeElement === document.body || this.decisionBox.contains(document.activeElement);
      const panel = drawDecision(game ? t : { ...t, state: undefined }, this.opts, game && t.detail ? game.step(t) : null, open, {
        choose: (o) => this.choose(o),
        undo: () => this.undo(),
        hover: (o) => this.hover(o),
        seatName: (s) => this.seatName(s),
        decorate: game?.decorate ? (o) => game.decorate?.(t, o) ?? null : undefined,
      });
      replace(this.decisionBox, panel);
      fitOptions(panel);
      if (hadFocus && open) this.decisionBox.querySelector<HTMLButtonElement>("button.option")?.focus({ preventScroll: true });
    }
    this.log.update(t.log);
    if (ui && cat) this.renderOutcome(t, ui, cat);
  }

  private seatName(seat: number): string {
    const t = this.store.table;
    if (!this.ui || !this.cat) return `Seat ${seat}`;
    return this.ui.seatName(this.cat, seat, t.summary?.seats[seat]?.role ?? "", t);
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
    } else if (this.ui && this.cat) {
      this.replay = new ReplayPanel(this.store.table, this.store.credentials(), this.ui, this.cat, () => this.toggleReplay());
      replace(this.replayBox, this.replay.el);
    }
    this.render(this.store.table);
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

  private renderOutcome(t: Table, ui: GameUi, cat: Catalog): void {
    const ending = t.state?.outcome ? ui.ending(t, cat) : undefined;
    if (!ending || this.outcomeClosed) {
      this.outcomeBox.hidden = true;
      return;
    }
    if (!this.outcomeBox.hidden) return;
    replace(
      this.outcomeBox,
      h("h2", undefined, ending.title),
      ...ending.lines,
      h("div", { class: "outcome-buttons" },
        h("button", { type: "button", onclick: () => this.leave() }, "Back to the lobby"),
        h("button", { type: "button", onclick: () => { this.outcomeClosed = true; this.outcomeBox.hidden = true; } }, "Look at the board")),
    );
    this.outcomeBox.className = `outcome ${ending.cls}`;
    this.outcomeBox.hidden = false;
    this.outcomeBox.querySelector("button")?.focus();
    setStatus(ending.status, "ok");
  }

  private hover(o: MyOption | undefined): void {
    this.highlight(o?.target);
    this.game?.hover?.(o);
  }

  private highlight(target: string | undefined): void {
    for (const el of this.el.querySelectorAll(".hl")) el.classList.remove("hl");
    if (!target) return;
    const q = CSS.escape(target);
    for (const el of this.el.querySelectorAll(`[data-hex="${q}"], [data-target="${q}"]`)) el.classList.add("hl");
  }

  /** A place of the table was picked: its one option is chosen; with
   * several, they are highlighted and the first gets the focus. */
  private pick(target: string): void {
    if (!this.open()) return;
    const here = this.opts.filter((o) => o.target === target);
    if (here.length === 1 && here[0]) {
      for (const el of this.el.querySelectorAll("button.option, button.undo")) (el as HTMLButtonElement).disabled = true;
      this.choose(here[0]);
    } else if (here.length > 1) {
      this.highlight(target);
      this.decisionBox.querySelector<HTMLButtonElement>(`button.option[data-target="${CSS.escape(target)}"]`)?.focus();
      setStatus(`${here.length} options aim there: pick one of the highlighted buttons.`, "info");
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
