// The lobby: the games on the server (ListGames, then WatchLobby for live
// changes) with their status and seats; join a free human seat, resume a
// seat this browser holds, or watch; and a form to create a game (ships,
// difficulty, Allies, nightmare, who may take each seat). Games of another
// type (VII Legio) are listed with their type and a note that this page
// plays X-ODUS only for now, without buttons.
import { create } from "@bufbuild/protobuf";
import { anyPack } from "@bufbuild/protobuf/wkt";
import type { Catalog } from "./catalog";
import { humanize } from "./catalog";
import { api, Code, errorCode, errorText, isCanceled, playerText } from "./client";
import { h, replace } from "./dom";
import { clockText } from "./clocks";
import { Claimant, ClockKind, ClockRulesSchema, GameKind, GameStatus, SeatOpenTo, TimeoutPolicy, type ClockRules, type GameSummary } from "./gen/tabletop/v1/game_pb";
import { XodusSetupSchema } from "./gen/xodus/v1/setup_pb";
import { allSeats, loadSeat, saveSeat } from "./session";
import { roleName } from "./ships";
import { setStatus } from "./status";
import { GAME_NAMES } from "./table";

const STATUS_TEXT: Record<number, string> = {
  [GameStatus.OPEN]: "open",
  [GameStatus.PLAYING]: "playing",
  [GameStatus.FINISHED]: "finished",
  [GameStatus.ABANDONED]: "abandoned",
};

export class LobbyView {
  readonly el: HTMLElement;
  private games = new Map<string, GameSummary>();
  private listBox = h("div", { class: "games" });
  private abort = new AbortController();

  constructor(private cat: Catalog, private open: (gameId: string) => void) {
    this.el = h("div", { class: "lobby" }, this.createForm(), h("section", { class: "game-list", "aria-label": "Games" }, h("h2", undefined, "Games"), this.listBox));
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

  private drawList(): void {
    const held = new Set(allSeats().map((s) => s.gameId));
    const games = [...this.games.values()].sort((a, b) => Number(b.createdUnixMs - a.createdUnixMs));
    if (!games.length) {
      replace(this.listBox, h("p", { class: "hint" }, "No game yet: create one."));
      return;
    }
    const rows = games.map((g) => {
      if (g.gameType && g.gameType !== "xodus") return this.foreignGame(g);
      const live = g.status === GameStatus.OPEN || g.status === GameStatus.PLAYING;
      const mine = held.has(g.gameId) ? loadSeat(g.gameId) : undefined;
      const seats = g.seats.map((s) => {
        const who = s.claimed ? (s.claimedBy === Claimant.AI || s.standIn ? "AI" : "human") : "free";
        const openToHuman = s.openTo !== SeatOpenTo.AI;
        const canJoin = live && !s.claimed && openToHuman && !mine;
        return h("li", { class: `seat ${who}` },
          `${s.seat}. ${roleName(this.cat, s.role)} — ${who}${!s.claimed ? ` (for ${s.openTo === SeatOpenTo.AI ? "AI" : s.openTo === SeatOpenTo.ANY ? "anyone" : "humans"})` : ""}`,
          canJoin ? h("button", { type: "button", class: "join", "data-game": g.gameId, "data-seat": s.seat, onclick: () => void this.join(g.gameId, s.seat) }, `Join as seat ${s.seat}`) : null);
      });
      const outcome = g.outcome ? ` — ${g.outcome.won ? "won" : "lost"}: ${humanize(g.outcome.cause)}` : "";
      return h("article", { class: `game ${STATUS_TEXT[g.status] ?? ""}`, "data-game": g.gameId },
        h("header", undefined, h("strong", undefined, g.gameId), h("span", { class: "gstatus" }, `${STATUS_TEXT[g.status] ?? "?"}${outcome}`), live ? null : h("span", { class: "gseq" }, `${g.seq} choices`),
          live && g.seedChosen ? h("span", { class: "seed-chosen", title: "Its creator chose the seed: whoever guesses it can work out every hidden card and roll. For practice and replays." }, "chosen seed: the deck is not secret") : null),
        clockText(g.clock) ? h("p", { class: "gclock" }, `Clock: ${clockText(g.clock)}`) : null,
        h("ul", { class: "seats" }, ...seats),
        h("div", { class: "game-buttons" },
          mine ? h("button", { type: "button", class: "resume", onclick: () => this.open(g.gameId) }, `Resume seat ${mine.seat}`) : null,
          h("button", { type: "button", class: "watch", onclick: () => this.open(g.gameId) }, mine ? "Open" : "Watch")));
    });
    replace(this.listBox, ...rows);
  }

  /** A game this page does not play: its type, status and seats, and a note. */
  private foreignGame(g: GameSummary): HTMLElement {
    const name = GAME_NAMES[g.gameType] ?? g.gameType;
    const seats = g.seats.map((s) => {
      const who = s.claimed ? (s.claimedBy === Claimant.AI || s.standIn ? "AI" : "human") : "free";
      return h("li", { class: `seat ${who}` }, `${s.seat}. ${humanize(s.role || "seat")} — ${who}`);
    });
    return h("article", { class: `game foreign ${STATUS_TEXT[g.status] ?? ""}`, "data-game": g.gameId, "data-type": g.gameType },
      h("header", undefined, h("strong", undefined, g.gameId), h("span", { class: "gtype" }, name), h("span", { class: "gstatus" }, STATUS_TEXT[g.status] ?? "?")),
      h("ul", { class: "seats" }, ...seats),
      h("p", { class: "hint not-here" }, `A ${name} game (game type “${g.gameType}”): this page plays X-ODUS only for now.`));
  }

  private async join(gameId: string, seat: number): Promise<void> {
    try {
      const r = await api.claimSeat({ gameId, seat, claimant: Claimant.HUMAN });
      saveSeat({ gameId, seat, token: r.token, lastSeq: "0" });
      setStatus(`You hold seat ${seat}.`, "ok");
      this.open(gameId);
    } catch (err) {
      const code = errorCode(err);
      const text = code === Code.FailedPrecondition ? "Someone took that seat first." : code === Code.PermissionDenied ? "That seat is not open to humans." : playerText(err);
      setStatus(text, "error", errorText(err));
    }
  }

  private createForm(): HTMLElement {
    const ships = this.cat.entriesOf("ship");
    const allies = this.cat.entriesOf("ally");
    const countSel = h("select", { id: "ship-count", name: "count" }, h("option", { value: "3" }, "3 ships"), h("option", { value: "4" }, "4 ships"));
    const seatRows: { row: HTMLElement; ship: HTMLSelectElement; who: HTMLSelectElement }[] = [];
    for (let i = 0; i < 4; i++) {
      const ship = h("select", { id: `ship-${i}`, "aria-label": `Ship of seat ${i}` }, h("option", { value: "" }, "random ship"), ...ships.map((s) => h("option", { value: s.id }, s.name)));
      const who = h("select", { id: `who-${i}`, "aria-label": `Who takes seat ${i}` },
        h("option", { value: "human" }, "Human"), h("option", { value: "ai" }, "AI captain"), h("option", { value: "any" }, "Anyone"));
      who.value = i === 0 ? "human" : "ai";
      const row = h("div", { class: "seat-row" }, h("span", undefined, `Seat ${i}`), ship, who);
      seatRows.push({ row, ship, who });
    }
    const difficulty = h("select", { id: "difficulty" }, ...["casual", "hardened", "heroic"].map((d) => h("option", { value: d }, humanize(d))));
    const nightmare = h("input", { type: "checkbox", id: "nightmare" });
    const seedInput = h("input", { type: "text", id: "seed", inputmode: "numeric", placeholder: "random", "aria-label": "Seed", size: "20" });
    const allySels = [0, 1].map((i) => h("select", { id: `ally-${i}`, "aria-label": `Ally ${i + 1}` }, h("option", { value: "" }, "random Ally"), ...allies.map((a) => h("option", { value: a.id }, a.name))));
    const clock = clockFields();
    const sync = () => {
      const n = Number(countSel.value);
      seatRows.forEach((r, i) => (r.row.hidden = i >= n));
    };
    countSel.addEventListener("change", sync);
    sync();
    const submit = async (ev: Event) => {
      ev.preventDefault();
      const n = Number(countSel.value);
      const rows = seatRows.slice(0, n);
      const chosen = rows.map((r) => r.ship.value);
      const setShips = chosen.filter(Boolean);
      if (setShips.length && setShips.length !== n) return setStatus("Choose every ship, or none for a random draw.", "error");
      if (new Set(setShips).size !== setShips.length) return setStatus("Each ship can sail only once.", "error");
      const allyIds = allySels.map((s) => s.value).filter(Boolean);
      if (allyIds.length === 1) return setStatus("Choose both Allies, or none for a random draw.", "error");
      if (allyIds.length === 2 && allyIds[0] === allyIds[1]) return setStatus("Choose two different Allies.", "error");
      const seed = parseSeed(seedInput.value);
      if (seed === null) return setStatus("The seed is a whole number from 0 to 18446744073709551615, or empty for a random game.", "error");
      const openTo = rows.map((r) => (r.who.value === "ai" ? SeatOpenTo.AI : r.who.value === "any" ? SeatOpenTo.ANY : SeatOpenTo.HUMAN));
      const rules = clock.read();
      if (typeof rules === "string") return setStatus(rules, "error");
      const setup = create(XodusSetupSchema, { shipCount: n, ships: setShips, difficulty: difficulty.value, allies: allyIds, nightmare: nightmare.checked, seed });
      try {
        setStatus("Creating the game…");
        const r = await api.createGame({ kind: GameKind.XODUS, gameType: "xodus", seats: openTo, clock: rules, setup: { case: "gameSetup", value: anyPack(XodusSetupSchema, setup) } });
        const g = r.game;
        if (!g) throw new Error("no game in the reply");
        this.games.set(g.gameId, g);
        const first = openTo.findIndex((o) => o !== SeatOpenTo.AI);
        if (first >= 0) await this.join(g.gameId, first);
        else this.open(g.gameId);
      } catch (err) {
        setStatus(playerText(err), "error", errorText(err));
      }
    };
    return h("form", { class: "create", "aria-label": "New game", onsubmit: (ev: Event) => void submit(ev) },
      h("h2", undefined, "New game"),
      h("label", undefined, "Ships ", countSel),
      ...seatRows.map((r) => r.row),
      h("label", undefined, "Difficulty ", difficulty),
      h("label", { class: "check" }, nightmare, " True nightmare (+1 Avatar move)"),
      h("div", { class: "ally-row" }, h("span", undefined, "Allies"), ...allySels),
      h("label", undefined, "Seed ", seedInput),
      clock.el,
      h("button", { type: "submit", id: "create-game" }, "Create game"),
      h("p", { class: "hint" }, "You take the first seat open to humans; AI captains take the AI seats. Leave the seed empty for a secret deck. A seed replays the same game, but anyone who guesses it can work out every hidden card, so the lobby marks such a game."));
  }
}

/** The clock part of the create form: the kind (none, Fischer, per move,
 * absolute), its times in seconds and what happens when time runs out. */
function clockFields(): { el: HTMLElement; read: () => ClockRules | undefined | string } {
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

/** The seed typed in the form: undefined when empty (a random game), null
 * when it is not a whole number that fits in 64 bits. */
export function parseSeed(text: string): bigint | undefined | null {
  const t = text.trim();
  if (t === "") return undefined;
  if (!/^[0-9]{1,20}$/.test(t)) return null;
  const n = BigInt(t);
  return n <= 0xffff_ffff_ffff_ffffn ? n : null;
}
