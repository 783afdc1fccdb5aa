// The lobby, one for every game the server hosts: the games (ListGames,
// then WatchLobby for live changes) with their type, status, seats and
// clocks, filtered by type; join a free human seat, resume a seat this
// browser holds, or watch; and a form to create a game: the game's type,
// its own setup form (GameUi.setupForm), and the clock every game shares.
// A game of a type this page has no UI of its own for is listed, joined and
// watched the same way (its table is the generic one, generic.ts), under
// its type as a name; the form does not create it.
import type { Catalog } from "./catalog";
import { api, Code, errorCode, errorText, isCanceled, playerText } from "./client";
import { h, replace } from "./dom";
import { clockText } from "./clocks";
import type { GameUi, SetupForm } from "./games";
import { Claimant, GameStatus, SeatOpenTo, type GameSummary } from "@xodus/client/gen/tabletop/v1/game_pb";
import { NO_CATALOG } from "./generic";
import { GAMES, gameName, tableUi } from "./registry";
import { allSeats, loadSeat, saveSeat } from "./session";
import { clockFields } from "./setup";
import { setStatus } from "./status";

const STATUS_TEXT: Record<number, string> = {
  [GameStatus.OPEN]: "open",
  [GameStatus.PLAYING]: "playing",
  [GameStatus.FINISHED]: "finished",
  [GameStatus.ABANDONED]: "abandoned",
};

const FILTER_KEY = "xodus.lobby.filter";

export class LobbyView {
  readonly el: HTMLElement;
  private games = new Map<string, GameSummary>();
  private listBox = h("div", { class: "games" });
  private filter: HTMLSelectElement;
  /** The type the filter shows, kept until its option exists (a type
   * without a UI of its own gets one once a game of it is listed). */
  private wanted: string;
  private abort = new AbortController();

  constructor(private cats: Map<string, Catalog>, private open: (gameId: string) => void, newType?: string) {
    this.filter = h("select", { id: "game-filter", "aria-label": "Show games of" },
      h("option", { value: "" }, "All games"), ...GAMES.map((g) => h("option", { value: g.type }, g.name)));
    this.wanted = localStorage.getItem(FILTER_KEY) ?? "";
    this.filter.value = this.wanted;
    if (this.filter.value !== this.wanted) this.filter.value = "";
    this.filter.addEventListener("change", () => {
      this.wanted = this.filter.value;
      localStorage.setItem(FILTER_KEY, this.filter.value);
      this.drawList();
    });
    this.el = h("div", { class: "lobby" }, this.createForm(newType),
      h("section", { class: "game-list", "aria-label": "Games" },
        h("div", { class: "list-head" }, h("h2", undefined, "Games"), h("label", undefined, "Show ", this.filter)),
        this.listBox));
    void this.follow();
  }

  destroy(): void {
    this.abort.abort();
  }

  /** ListGames, then WatchLobby; after a lost connection, again (with a
   * growing pause) until the lobby is closed. */
  private async follow(): Promise<void> {
    let delay = 500;
    while (!this.abort.signal.aborted) {
      try {
        let token = "";
        do {
          const r = await api.listGames({ pageSize: 200, pageToken: token }, { signal: this.abort.signal });
          for (const g of r.games) this.games.set(g.gameId, g);
          token = r.nextPageToken;
        } while (token);
        this.drawList();
        delay = 500;
        for await (const msg of api.watchLobby({}, { signal: this.abort.signal })) {
          if (msg.game) this.games.set(msg.game.gameId, msg.game);
          this.drawList();
        }
      } catch (err) {
        if (isCanceled(err) || this.abort.signal.aborted) return;
        setStatus(`Lobby: ${playerText(err)}`, "error", errorText(err));
      }
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 8000);
    }
  }

  /** Adds a filter option for every type listed that has none yet. */
  private filterTypes(all: GameSummary[]): void {
    const have = new Set([...this.filter.options].map((o) => o.value));
    const types = [...new Set(all.map((g) => g.gameType || "xodus"))].filter((t) => !have.has(t)).sort();
    for (const t of types) this.filter.append(h("option", { value: t }, gameName(t)));
    if (this.filter.value !== this.wanted && [...this.filter.options].some((o) => o.value === this.wanted)) this.filter.value = this.wanted;
  }

  private drawList(): void {
    const held = new Set(allSeats().map((s) => s.gameId));
    const all = [...this.games.values()];
    this.filterTypes(all);
    const only = this.filter.value;
    const games = all.filter((g) => !only || (g.gameType || "xodus") === only).sort((a, b) => Number(b.createdUnixMs - a.createdUnixMs));
    if (!games.length) {
      replace(this.listBox, h("p", { class: "hint" }, all.length ? `No ${gameName(only)} game yet${tableUi(only).generic ? "" : ": create one"}.` : "No game yet: create one."));
      return;
    }
    replace(this.listBox, ...games.map((g) => this.card(g, held.has(g.gameId))));
  }

  private card(g: GameSummary, held: boolean): HTMLElement {
    const type = g.gameType || "xodus";
    const ui = tableUi(type);
    const cat = ui.generic ? NO_CATALOG : this.cats.get(type);
    const live = g.status === GameStatus.OPEN || g.status === GameStatus.PLAYING;
    const mine = held ? loadSeat(g.gameId) : undefined;
    const seats = g.seats.map((s) => {
      const who = s.claimed ? (s.claimedBy === Claimant.AI || s.standIn ? "AI" : "human") : "free";
      const canJoin = live && !s.claimed && s.openTo !== SeatOpenTo.AI && !mine;
      const name = cat ? ui.seatName(cat, s.seat, s.role) : s.role || `seat ${s.seat}`;
      return h("li", { class: `seat ${who}`, "data-seat": s.seat },
        `${name} — ${who}${!s.claimed ? ` (for ${s.openTo === SeatOpenTo.AI ? "AI" : s.openTo === SeatOpenTo.ANY ? "anyone" : "humans"})` : ""}`,
        canJoin ? h("button", { type: "button", class: "join", "data-game": g.gameId, "data-seat": s.seat, onclick: () => void this.join(g.gameId, s.seat, name) }, `Join as ${name}`) : null);
    });
    const outcome = ui.lobbyOutcome(g);
    const mineName = mine && cat ? ui.seatName(cat, mine.seat, g.seats[mine.seat]?.role ?? "") : "your seat";
    return h("article", { class: `game ${STATUS_TEXT[g.status] ?? ""}${ui.generic ? " generic" : ""}`, "data-game": g.gameId, "data-type": type },
      h("header", undefined, h("strong", undefined, g.gameId), h("span", { class: "gtype", title: `game type “${type}”` }, ui.name),
        h("span", { class: "gstatus" }, `${STATUS_TEXT[g.status] ?? "?"}${outcome ? ` — ${outcome}` : ""}`),
        live ? null : h("span", { class: "gseq" }, `${g.seq} choices`),
        live && g.seedChosen ? h("span", { class: "seed-chosen", title: "Its creator chose the seed: whoever guesses it can work out every hidden card and roll. For practice and replays." }, "chosen seed: the deck is not secret") : null),
      clockText(g.clock) ? h("p", { class: "gclock" }, `Clock: ${clockText(g.clock)}`) : null,
      h("ul", { class: "seats" }, ...seats),
      h("div", { class: "game-buttons" },
        mine ? h("button", { type: "button", class: "resume", onclick: () => this.open(g.gameId) }, `Resume as ${mineName}`) : null,
        h("button", { type: "button", class: "watch", onclick: () => this.open(g.gameId) }, mine ? "Open" : "Watch")));
  }

  private async join(gameId: string, seat: number, name?: string): Promise<void> {
    try {
      const r = await api.claimSeat({ gameId, seat, claimant: Claimant.HUMAN });
      saveSeat({ gameId, seat, token: r.token, lastSeq: "0" });
      setStatus(name ? `You sit as ${name}.` : "You hold the seat.", "ok");
      this.open(gameId);
    } catch (err) {
      const code = errorCode(err);
      const text = code === Code.FailedPrecondition ? "Someone took that seat first." : code === Code.PermissionDenied ? "That seat is not open to humans." : playerText(err);
      setStatus(text, "error", errorText(err));
    }
  }

  /** The create form: the game type, that game's setup form, the clock. */
  private createForm(newType?: string): HTMLElement {
    const forms = new Map<string, { ui: GameUi; form: SetupForm }>();
    for (const ui of GAMES) {
      const cat = this.cats.get(ui.type);
      if (cat) forms.set(ui.type, { ui, form: ui.setupForm(cat) });
    }
    const typeSel = h("select", { id: "game-type", "aria-label": "Game" }, ...[...forms.values()].map(({ ui }) => h("option", { value: ui.type }, ui.name)));
    if (newType && forms.has(newType)) typeSel.value = newType;
    const hint = h("p", { class: "hint game-hint" });
    const sync = () => {
      for (const [type, f] of forms) f.form.el.hidden = type !== typeSel.value;
      hint.textContent = forms.get(typeSel.value)?.form.hint ?? "";
    };
    typeSel.addEventListener("change", sync);
    sync();
    const clock = clockFields();
    const submit = async (ev: Event) => {
      ev.preventDefault();
      const f = forms.get(typeSel.value);
      if (!f) return;
      const read = f.form.read();
      if (typeof read === "string") return setStatus(read, "error");
      const rules = clock.read();
      if (typeof rules === "string") return setStatus(rules, "error");
      try {
        setStatus("Creating the game…");
        const r = await api.createGame({ kind: read.kind, gameType: f.ui.type, seats: read.seats, clock: rules, setup: { case: "gameSetup", value: read.setup } });
        const g = r.game;
        if (!g) throw new Error("no game in the reply");
        this.games.set(g.gameId, g);
        const first = read.seats.findIndex((o) => o !== SeatOpenTo.AI);
        const cat = this.cats.get(f.ui.type);
        if (first >= 0) await this.join(g.gameId, first, cat ? f.ui.seatName(cat, first, g.seats[first]?.role ?? "") : undefined);
        else this.open(g.gameId);
      } catch (err) {
        setStatus(playerText(err), "error", errorText(err));
      }
    };
    return h("form", { class: "create", "aria-label": "New game", onsubmit: (ev: Event) => void submit(ev) },
      h("h2", undefined, "New game"),
      h("label", undefined, "Game ", typeSel),
      hint,
      ...[...forms.values()].map((f) => f.form.el),
      clock.el,
      h("button", { type: "submit", id: "create-game" }, "Create game"),
      h("p", { class: "hint" }, "You take the first seat open to humans; the AI takes the AI seats. Leave the seed empty for a secret deck. A seed replays the same game, but anyone who guesses it can work out every hidden card, so the lobby marks such a game."));
  }
}
