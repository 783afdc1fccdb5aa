// The table shell, shared by every game: the info bar (lobby, game, where
// it stands and who decides, the seat by its game's name, live, delayed or
// offline, clock rules, how to win, replay, leave seat), the seat clocks,
// the decision panel (with the hint button and the advice, hint.ts: the
// advised places of the map highlighted), the log, the talk panel (talk.ts: a signal said
// points at its place of the table for a few seconds; the place last
// pointed at on the map is where the signal buttons aim), the "How to
// win" panel, the question asked before a costly option, the replay panel
// and the end screen; it mounts
// the game's own table (GameTable: its board and panels) once the first
// state says which game this is, redraws everything from the store, and
// routes clicks, picks on the table and option keys to the store (after a
// pick the options stay off until the new state is there and a moment has
// passed, so that a double click spends one choice). A game this page has
// no table of its own for is played on the generic table (generic.ts). A
// plain page says so when the game does not exist.
import { loadCatalog, type Catalog } from "./catalog";
import { errorText, playerText } from "./client";
import { ClockRow, clockText } from "./clocks";
import { drawDecision, fitOptions, keyIndex, revealInList, selectOption } from "./decision";
import { h, replace } from "./dom";
import type { GameTable, GameUi } from "./games";
import { HintPanel } from "./hint";
import { LogView } from "./log";
import { myOptions, type MyOption } from "./options";
import { NO_CATALOG } from "./generic";
import { tableUi } from "./registry";
import { ReplayPanel } from "./replay";
import { setStatus } from "./status";
import type { GameStore, Table } from "./store";
import { TalkPanel } from "./talk";
import { setTitle } from "./title";
import { SpectatorPolicy } from "@xodus/client/gen/tabletop/v1/game_pb";

/** How long after a pick the options stay off at least: longer than the
 * gap between the two clicks of a quick double click, whose second click
 * would otherwise land on the next decision's options. (A second click
 * the browser counts as such, `detail` 2, is ignored whenever it comes.) */
const ARM_MS = 300;

/** How long a signal said at the table points at its place. */
const POINT_MS = 5000;

export class TableShell {
  readonly el: HTMLElement;
  private colLeft = h("div", { class: "col-left" });
  private colMid = h("div", { class: "col-mid" });
  private colRight = h("div", { class: "col-right" });
  private decisionBox = h("div", { class: "decision-box" });
  private info = h("div", { class: "table-info" });
  private outcomeBox = h("div", { id: "outcome", class: "outcome", role: "dialog", "aria-modal": "false", hidden: true });
  /** The "How to win" panel (the game's rules text), toggled by its
   * button and the ? key. */
  private rulesBox = h("section", { id: "rules", class: "rules", role: "dialog", "aria-modal": "false", "aria-label": "How to win", hidden: true });
  /** The question asked before a costly option is sent. */
  private confirmBox = h("div", { id: "confirm", class: "confirm", role: "alertdialog", "aria-modal": "true", "aria-labelledby": "confirm-title", "aria-describedby": "confirm-text", hidden: true });
  /** The option the question is about, and the seq it was asked at. */
  private asking?: { o: MyOption; seq: bigint | undefined };
  /** Stops following the options list's size (the "more below" hint). */
  private unfit = () => {};
  private log = new LogView();
  private clocks = new ClockRow();
  private replay?: ReplayPanel;
  private replayBox = h("div", { class: "replay-box" });
  private talk?: TalkPanel;
  /** The hint button and the advice, moved into each new decision panel. */
  private hints: HintPanel;
  /** The place a signal points at, until when (performance.now()). */
  private pointing?: { target: string; until: number };
  private pointTimer = 0;
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
    this.hints = new HintPanel(store, () => this.render(this.store.table));
    this.colRight.append(this.decisionBox, this.log.el);
    this.el = h("div", { class: "table" }, this.info, this.replayBox, this.colLeft, this.colMid, this.colRight, this.outcomeBox, this.rulesBox, this.confirmBox);
    store.subscribe((t) => this.render(t));
    document.addEventListener("keydown", this.onKey);
  }

  destroy(): void {
    document.removeEventListener("keydown", this.onKey);
    clearTimeout(this.armTimer);
    clearTimeout(this.pointTimer);
    this.talk?.destroy();
    this.hints.destroy();
    this.unfit();
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

  /** A plain page instead of the table (no such game). */
  private endWith(title: string, text: string, cls: string): void {
    if (this.ended) return;
    this.ended = true;
    replace(this.el, h("section", { class: `notice ${cls}`, role: "alert" },
      h("h2", undefined, title), h("p", undefined, text),
      h("p", undefined, h("a", { href: "#/", class: "to-lobby" }, "← Back to the lobby"))));
  }

  /** Mounts the game's table once its type is known and its catalog is in
   * (the generic table needs none). */
  private mount(t: Table): void {
    if (this.mounting || !t.gameType) return;
    const ui = tableUi(t.gameType);
    this.mounting = true;
    (ui.generic ? Promise.resolve(NO_CATALOG) : loadCatalog(ui.type)).then((cat) => {
      this.ui = ui;
      this.cat = cat;
      this.game = ui.newTable(cat, { pick: (k) => this.pick(k), hover: (k) => this.highlight(k) });
      this.el.classList.add(ui.generic ? "game-generic" : `game-${ui.type}`);
      this.el.dataset.gameType = ui.type;
      this.talk = new TalkPanel(this.store, ui, cat, { seatName: (s) => this.seatName(s), show: (k) => this.point(k) });
      this.colLeft.replaceChildren(...this.game.left);
      this.colMid.replaceChildren(...this.game.mid);
      this.colRight.replaceChildren(this.decisionBox, ...this.game.right, this.talk.el, this.log.el);
      this.followPointer();
      setTitle(`${ui.name} — ${t.gameId}`, ui.name);
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
    if (this.ended) return;
    if (!this.game) this.mount(t);
    const ui = this.ui;
    const cat = this.cat;
    const game = this.game;
    const st = t.state;
    this.opts = ui && game ? myOptions(t, ui.readOption) : [];
    this.hints.update(t, this.opts);
    const open = this.open();
    const seatText = t.seat === undefined ? "Spectating" : ui ? `You: ${this.seatName(t.seat)}` : "You: seated";
    const behind = this.behind(t);
    replace(
      this.info,
      h("button", { type: "button", class: "back", onclick: () => this.leave() }, "← Lobby"),
      h("span", { class: "gid" }, t.gameId),
      ui ? h("span", { class: "gtype", title: `game type “${ui.type}”` }, ui.name) : null,
      game ? h("span", { class: "where" }, game.where(t)) : null,
      h("span", { class: "seat-text" }, seatText),
      st ? h("span", { class: "seq" }, `seq ${st.seq}`) : null,
      h("span", { class: `live ${t.live ? "on" : "off"}${behind !== undefined ? " delayed" : ""}`, "data-behind": behind },
        t.live ? (behind !== undefined ? `● delayed: ${behind} choice${behind === 1 ? "" : "s"} behind` : "● live") : st?.outcome ? "■ ended" : "○ offline"),
      clockText(t.summary?.clock) ? h("span", { class: "clock-rules" }, `Clock: ${clockText(t.summary?.clock)}`) : null,
      ui ? h("button", { type: "button", id: "rules-open", "aria-expanded": this.rulesBox.hidden ? "false" : "true", "aria-controls": "rules", title: "How the game ends and who wins (?)", onclick: () => this.toggleRules() }, "How to win") : null,
      st && game && (st.outcome || t.seat !== undefined) && st.seq > 0n
        ? h("button", { type: "button", id: "replay-open", onclick: () => this.toggleReplay() }, this.replay ? "Close replay" : "Replay")
        : null,
      t.seat !== undefined && !st?.outcome ? h("button", { type: "button", id: "leave-seat", onclick: () => this.confirmLeave() }, "Leave seat") : null,
      this.clocks.el,
    );
    this.clocks.update(st, t.summary?.clock, t.seat, (s) => this.seatName(s));
    document.body.dataset.seq = st ? st.seq.toString() : "";
    if (game && t.detail) game.render(t, this.opts, open);
    this.markPointed();
    this.talk?.update(t);
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
      const focusedId = (document.activeElement as HTMLElement | null)?.closest?.("button.option")?.getAttribute("data-id");
      const hintFocused = this.hints.el.contains(document.activeElement);
      if (game && st && !st.outcome) {
        // The hint button and the advice: above the options (or Undo).
        panel.insertBefore(this.hints.el, panel.querySelector(":scope > ol.options, :scope > button.undo"));
      } else {
        this.hints.el.remove();
      }
      replace(this.decisionBox, panel);
      this.unfit();
      this.unfit = fitOptions(panel);
      if (hintFocused && this.hints.el.isConnected) {
        this.hints.focus();
      } else if (hadFocus && open && !this.asking) {
        // The same option keeps the focus when it is still there (a seat
        // changed hands), else the first; the list shows it, the page
        // does not move.
        const same = focusedId ? panel.querySelector<HTMLButtonElement>(`button.option[data-id="${CSS.escape(focusedId)}"]`) : null;
        const btn = same ?? panel.querySelector<HTMLButtonElement>("button.option");
        btn?.focus({ preventScroll: true });
        if (btn) revealInList(btn);
      }
    }
    if (this.asking && this.asking.seq !== st?.seq) {
      // The decision moved on under the question: nothing was sent.
      this.closeConfirm();
      setStatus("The decision changed before you confirmed: nothing was sent.", "info");
    }
    this.hints.mark(this.el);
    this.log.update(t.log);
    if (ui && cat) this.renderOutcome(t, ui, cat);
  }

  private seatName(seat: number): string {
    const t = this.store.table;
    if (!this.ui || !this.cat) return `Seat ${seat}`;
    return this.ui.seatName(this.cat, seat, t.summary?.seats[seat]?.role ?? "", t);
  }

  /** How many choices behind the game a spectator sees it under a
   * delaying spectator policy (undefined: live, for a seat, a public
   * game, or once the game is over). Past the game's first choices the
   * lag is the policy's delay; before, the game's seq (as the summary
   * last said it) minus the state's. */
  private behind(t: Table): number | undefined {
    const g = t.summary;
    const st = t.state;
    if (t.seat !== undefined || !g || !st || st.outcome) return undefined;
    if (g.spectatorPolicy !== SpectatorPolicy.DELAYED && g.spectatorPolicy !== SpectatorPolicy.TEAM) return undefined;
    const delay = g.spectatorDelay;
    if (!delay) return undefined;
    if (st.seq > 0n) return delay;
    const gap = g.seq > st.seq ? Number(g.seq - st.seq) : 0;
    return Math.min(delay, gap);
  }

  /** Leaves the seat, after asking. */
  private confirmLeave(): void {
    const t = this.store.table;
    if (t.seat === undefined) return;
    if (!window.confirm(`Leave your seat (${this.seatName(t.seat)})? It opens again for someone else, and this browser forgets it. You go on watching.`)) return;
    void this.leaveSeat();
  }

  /** Opens or closes the "How to win" panel. */
  private toggleRules(): void {
    if (!this.ui) return;
    if (this.rulesBox.hidden) {
      const close = h("button", { type: "button", id: "rules-close", class: "rules-close", onclick: () => this.toggleRules() }, "Close");
      replace(this.rulesBox,
        h("div", { class: "rules-bar" }, h("h2", undefined, `How to win: ${this.ui.name}`), h("span", { class: "hint" }, "? opens and closes this"), close),
        this.ui.rules());
      this.rulesBox.hidden = false;
      close.focus({ preventScroll: true });
    } else {
      this.rulesBox.hidden = true;
      replace(this.rulesBox);
      if (this.rulesBox.contains(document.activeElement) || document.activeElement === document.body) this.info.querySelector<HTMLElement>("#rules-open")?.focus({ preventScroll: true });
    }
    this.render(this.store.table);
  }

  /** Asks before sending a costly option: what goes, and two buttons. */
  private ask(o: MyOption, question: string): void {
    this.asking = { o, seq: this.store.table.state?.seq };
    const yes = h("button", { type: "button", id: "confirm-yes", class: "confirm-yes", onclick: () => this.confirmed() }, h("kbd", undefined, "y"), `Yes: ${o.option.label}`);
    const no = h("button", { type: "button", id: "confirm-no", class: "confirm-no", onclick: () => this.cancelled() }, h("kbd", undefined, "Esc"), "No, go back");
    replace(this.confirmBox,
      h("h2", { id: "confirm-title" }, "Are you sure?"),
      h("p", { id: "confirm-text", class: "confirm-text" }, question),
      h("div", { class: "confirm-buttons" }, yes, no));
    this.confirmBox.hidden = false;
    yes.focus();
  }

  private closeConfirm(): void {
    this.asking = undefined;
    this.confirmBox.hidden = true;
    replace(this.confirmBox);
  }

  /** The question was answered yes: the option is sent. */
  private confirmed(): void {
    const a = this.asking;
    this.closeConfirm();
    if (!a || a.seq !== this.store.table.state?.seq || !this.open()) {
      this.decisionKey = "";
      this.render(this.store.table);
      return;
    }
    this.picked();
    void this.store.choose(a.o.option.id);
  }

  /** The question was answered no: back to the options, nothing sent. */
  private cancelled(): void {
    const a = this.asking;
    this.closeConfirm();
    // The panel turned its buttons off at the click: draw it again.
    this.decisionKey = "";
    this.render(this.store.table);
    const btn = a ? this.decisionBox.querySelector<HTMLButtonElement>(`button.option[data-id="${CSS.escape(a.o.option.id)}"]`) : null;
    if (btn) selectOption(btn);
    setStatus("Nothing was sent.", "info");
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
    if (this.asking) return;
    if (!this.open()) {
      // The click turned the buttons off and nothing was sent: they come
      // back (now, or when the arm timer of the last pick redraws).
      this.decisionKey = "";
      this.render(this.store.table);
      return;
    }
    const question = this.ui && this.cat ? this.ui.confirm?.(o, this.store.table, this.cat) : undefined;
    if (question) {
      this.ask(o, question);
      return;
    }
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

  /** A signal said at the table points at its place for a while. */
  private point(target: string): void {
    this.pointing = { target, until: performance.now() + POINT_MS };
    this.markPointed();
    clearTimeout(this.pointTimer);
    this.pointTimer = window.setTimeout(() => {
      this.pointing = undefined;
      this.markPointed();
    }, POINT_MS + 5);
  }

  /** Marks the place a signal points at (again after each redraw of the table). */
  private markPointed(): void {
    const p = this.pointing && this.pointing.until > performance.now() ? this.pointing.target : undefined;
    for (const el of this.el.querySelectorAll(".talk-hl")) {
      if (!p || (el.getAttribute("data-hex") !== p && el.getAttribute("data-target") !== p)) el.classList.remove("talk-hl");
    }
    if (!p) return;
    const q = CSS.escape(p);
    for (const el of this.el.querySelectorAll(`.col-left [data-hex="${q}"], .col-mid [data-hex="${q}"], .col-left [data-target="${q}"], .col-mid [data-target="${q}"]`)) el.classList.add("talk-hl");
  }

  /** The place of the map under the pointer (or the focus), and the one
   * clicked: where the talk panel's signals aim. */
  private followPointer(): void {
    // A system, a sector (rather than a planet in it), else any place.
    const place = (ev: Event) => {
      const el = ev.target as Element | null;
      return el?.closest?.('[data-hex], [data-target^="sector:"]') ?? el?.closest?.("[data-target]");
    };
    const keyOf = (el: Element | null | undefined) => el?.getAttribute("data-hex") ?? el?.getAttribute("data-target") ?? undefined;
    this.colMid.addEventListener("mouseover", (ev) => this.talk?.point(keyOf(place(ev)), false));
    this.colMid.addEventListener("mouseleave", () => this.talk?.point(undefined, false));
    this.colMid.addEventListener("focusin", (ev) => this.talk?.point(keyOf(place(ev)), false));
    this.colMid.addEventListener("click", (ev) => this.talk?.point(keyOf(place(ev)), true));
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
    if (this.asking) {
      // The question holds every key but its own: y or Enter on "Yes"
      // sends, n or Escape goes back (Tab moves between the two buttons only).
      if (ev.key === "Escape" || ev.key === "n" || ev.key === "N") {
        ev.preventDefault();
        this.cancelled();
      } else if ((ev.key === "y" || ev.key === "Y") && !ev.repeat) {
        ev.preventDefault();
        this.confirmed();
      } else if (ev.key === "Tab") {
        // The focus stays on the question's two buttons.
        ev.preventDefault();
        const yes = this.confirmBox.querySelector<HTMLButtonElement>("#confirm-yes");
        const no = this.confirmBox.querySelector<HTMLButtonElement>("#confirm-no");
        (document.activeElement === yes ? no : yes)?.focus();
      } else if (ev.key !== "Enter" && ev.key !== " ") {
        ev.preventDefault();
      }
      return;
    }
    if (ev.key === "?") {
      ev.preventDefault();
      this.toggleRules();
      return;
    }
    if (ev.key === "Escape" && !this.rulesBox.hidden) {
      ev.preventDefault();
      this.toggleRules();
      return;
    }
    if (ev.key === "H") {
      // Shift+H asks for a hint (h is an option's key).
      ev.preventDefault();
      if (!ev.repeat) void this.hints.ask();
      return;
    }
    const n = keyIndex(ev.key);
    if (n >= 0) {
      const o = this.opts[n];
      // A held key repeats: only its first press picks.
      if (o && !ev.repeat && this.open()) {
        ev.preventDefault();
        // The option picked shows, then goes (or is asked about).
        const btn = this.decisionBox.querySelector<HTMLButtonElement>(`button.option[data-index="${o.index}"]`);
        if (btn) selectOption(btn);
        this.choose(o);
      }
    } else if (ev.key === "u" || ev.key === "U") {
      if (this.store.table.state?.canUndo && !ev.repeat) this.undo();
    } else if (ev.key === "ArrowDown" || ev.key === "ArrowUp" || ev.key === "Home" || ev.key === "End") {
      // The keyboard's selection: the focused option, always in view.
      const buttons = [...this.decisionBox.querySelectorAll<HTMLButtonElement>("button.option")];
      const i = buttons.indexOf(document.activeElement as HTMLButtonElement);
      const free = document.activeElement === document.body || document.activeElement === null || !!(document.activeElement as HTMLElement).closest?.("ol.options");
      if (!buttons.length || (i < 0 && !free)) return;
      ev.preventDefault();
      const last = buttons.length - 1;
      const next = ev.key === "Home" ? 0 : ev.key === "End" ? last
        : i < 0 ? (ev.key === "ArrowDown" ? 0 : last)
          : (i + (ev.key === "ArrowDown" ? 1 : last)) % buttons.length;
      const btn = buttons[next];
      if (btn) selectOption(btn);
    }
  }
}
