// VII Legio: Nébuleuse Rouge in the page: its table (the Red Nebula, the
// tracks and contacts, every commander's board, your own hand and
// objectives, the landing and mission under way), drawn from the typed
// LegioState and the catalog; how its options aim at the table; its
// setup form (commanders, who takes each seat, seed, round limit); its
// end screen with the final scores; its replay step and its log lines; its
// rules text; the question asked before an option that spends the whole
// hand or costs PC (LegioChoice.price, when the server sends it); its
// signals at the talk panel (talk.ts).
import { create } from "@bufbuild/protobuf";
import { anyPack, anyUnpack } from "@bufbuild/protobuf/wkt";
import type { Catalog } from "../catalog";
import { h, replace } from "../dom";
import type { GameTable, GameUi, SetupForm, TableHooks } from "../games";
import { LegioChoiceSchema, type LegioChoice } from "@xodus/client/gen/legio/v1/choice_pb";
import { LegioEventSchema } from "@xodus/client/gen/legio/v1/events_pb";
import { LegioSetupSchema } from "@xodus/client/gen/legio/v1/setup_pb";
import { LegioStateSchema, type LegioState } from "@xodus/client/gen/legio/v1/state_pb";
import { GameKind, SeatOpenTo, type Event, type GameState, type Outcome } from "@xodus/client/gen/tabletop/v1/game_pb";
import { byTarget, type MyOption } from "../options";
import { parseSeed, whoSelect } from "../setup";
import type { Table } from "../store";
import { drawBoards, drawNebula, drawTracks, type Picks } from "./board";
import { describeStep, drawMission } from "./mission";
import { drawPrivate } from "./private";
import { legioRules, WIN_RULE } from "./rules";
import { LEGIO_TALK } from "./talk";
import { choiceTarget, commander, commanders, plural, SHARES } from "./words";

/** Where the game stands in a few words: the round and who the pending
 * decision waits on (its deciders: in the setup they are not the turn's
 * commander), or that the game is over and who won. */
function whereText(t: { state?: GameState }, x: LegioState): string {
  const st = t.state;
  const o = st?.outcome;
  if (o) return `Game over: ${resultText(o)}`;
  const deciders = st?.decision?.deciders ?? [];
  return `Round ${x.round} · ${deciders.length ? `${commanders(deciders)} to play` : "waiting"}`;
}

/** Who won, in a sentence's words. */
function resultText(o: Outcome): string {
  if (o.truncated) return "cut by the round limit, no winner";
  const w = o.winners;
  if (!w.length) return "nobody reached 10 PX, no winner";
  return `${commanders(w)} win${w.length === 1 ? "s" : ""}`;
}

function legioOf(t: Table): LegioState | undefined {
  return t.detail as LegioState | undefined;
}

function unpackEvent(e: Event) {
  return e.detail ? anyUnpack(e.detail, LegioEventSchema) : undefined;
}

class LegioTable implements GameTable {
  private boardsBox = h("div", { class: "mats-box" });
  private mapBox = h("div", { class: "board-box nebula-box" });
  private tracksBox = h("div", { class: "tracks-box" });
  private privateBox = h("div", { class: "hand-box" });
  private missionBox = h("div", { class: "combat-box mission-box" });
  readonly left = [this.boardsBox];
  readonly mid = [this.mapBox, this.missionBox, this.tracksBox];
  readonly right = [this.privateBox];
  /** Each commander's last damage roll since its last repair, in words,
   * from the events seen. */
  private damage = new Map<number, string>();
  /** The PC each participant of the latest mission gained from it. */
  private shares = new Map<number, number>();
  private seen = 0;

  constructor(private cat: Catalog, private hooks: TableHooks) {}

  where(t: Table): string {
    const x = legioOf(t);
    return x ? whereText(t, x) : "";
  }

  render(t: Table, opts: MyOption[], open: boolean): void {
    const x = legioOf(t);
    if (!x) return;
    this.readEvents(t);
    const p: Picks = { targets: byTarget(opts), open, pick: (k) => this.hooks.pick(k), hover: (k) => this.hooks.hover(k) };
    replace(this.mapBox, drawNebula(x, this.cat, p));
    replace(this.tracksBox, drawTracks(x, this.cat, p));
    replace(this.boardsBox, drawBoards(x, this.cat, t.summary, p, this.damage, t.state?.decision?.deciders ?? []));
    replace(this.privateBox, drawPrivate(x, this.cat, p));
    replace(this.missionBox, drawMission(x, this.cat, this.shares));
  }

  /** What the table draws from the events: damage rolls, mission shares. */
  private readEvents(t: Table): void {
    if (t.events.length < this.seen) this.seen = 0;
    for (const e of t.events.slice(this.seen)) {
      const ev = unpackEvent(e)?.event;
      if (ev?.case === "landed") this.shares.clear();
      if (ev?.case === "pc" && ev.value.reason === "mission") this.shares.set(ev.value.seat, (this.shares.get(ev.value.seat) ?? 0) + ev.value.delta);
      if (ev?.case === "damageRolled") this.damage.set(ev.value.seat, `${ev.value.face}: ${e.summary.replace(/^.*?: /, "")}`);
      // A repair restores the starting configuration: the damage is gone.
      if (ev?.case === "repaired") this.damage.delete(ev.value.seat);
    }
    this.seen = t.events.length;
  }

  step(t: Table): HTMLElement | null {
    const x = legioOf(t);
    return x ? describeStep(x, this.cat) : null;
  }
}

function setupForm(): SetupForm {
  const players = h("select", { id: "legio-players", "aria-label": "Commanders" }, ...[2, 3, 4].map((n) => h("option", { value: String(n) }, `${n} commanders`)));
  // As the terminal's `xodus play --game legio`: 3 commanders.
  players.value = "3";
  const rows: { row: HTMLElement; who: HTMLSelectElement }[] = [];
  for (let i = 0; i < 4; i++) {
    const who = whoSelect(`legio-who-${i}`, `Who takes ${commander(i)}`, "AI commander", i === 0);
    rows.push({ row: h("div", { class: "seat-row" }, h("span", undefined, commander(i)), who), who });
  }
  const seed = h("input", { type: "text", id: "legio-seed", inputmode: "numeric", placeholder: "random", "aria-label": "Seed", size: "20" });
  const limit = h("input", { type: "number", id: "legio-round-limit", min: "1", max: "200", placeholder: "80", "aria-label": "Round limit", class: "secs" });
  const sync = () => rows.forEach((r, i) => (r.row.hidden = i >= Number(players.value)));
  players.addEventListener("change", sync);
  sync();
  const read: SetupForm["read"] = () => {
    const n = Number(players.value);
    const s = parseSeed(seed.value);
    if (s === null) return "The seed is a whole number from 0 to 18446744073709551615, or empty for a random game.";
    const lt = limit.value.trim();
    if (lt && !(/^[0-9]+$/.test(lt) && Number(lt) >= 1 && Number(lt) <= 200)) return "The round limit is 1 to 200 rounds, or empty for the default.";
    const seats = rows.slice(0, n).map((r) => (r.who.value === "ai" ? SeatOpenTo.AI : r.who.value === "any" ? SeatOpenTo.ANY : SeatOpenTo.HUMAN));
    const setup = create(LegioSetupSchema, { players: n, seed: s, roundLimit: lt ? Number(lt) : undefined });
    return { kind: GameKind.LEGIO, seats, setup: anyPack(LegioSetupSchema, setup) };
  };
  const el = h("div", { class: "setup setup-legio", "data-game-type": "legio" },
    h("label", undefined, "Commanders ", players),
    ...rows.map((r) => r.row),
    h("label", undefined, "Seed ", seed),
    h("label", undefined, "Round limit ", limit));
  return { el, read, hint: `Competitive: 2 to 4 commanders map the Red Nebula. ${WIN_RULE}. Your hand and objectives stay yours. The round limit is the host's safety net (default 80): a game it cuts has no winner.` };
}

/** Why a few events happened, after the server's summary. */
function why(e: Event): string {
  const ev = unpackEvent(e)?.event;
  switch (ev?.case) {
    case "discovered": return " — a Discovery card found an inhabited planet; its discoverer keeps the card as a trophy once it is explored, and commanders in that sector may now land on it.";
    case "answered": return ev.value.accepted ? " — it will land too, pool its squads and experience, and share the mission's PC." : " — it stays out of this landing.";
    case "landed": return " — the ships pool their experience against the card's demand.";
    case "missionResolved": return ev.value.success ? ` — the experience met the card's demand: ${SHARES}` : " — the experience fell short of the card's demand: nobody scores from it.";
    case "landingAborted": return " — nothing is spent on it.";
    case "fought": return ev.value.had >= ev.value.needed ? "" : " — each missing laser means a roll on the damage table.";
    default: return "";
  }
}

export const LEGIO: GameUi = {
  type: "legio",
  name: "VII Legio",
  unpack: (state) => (state.detail.case === "gameState" ? anyUnpack(state.detail.value, LegioStateSchema) : undefined),
  logLine: (e) => e.summary + why(e),
  readOption: (option) => {
    const typed = option.detail ? anyUnpack(option.detail, LegioChoiceSchema) : undefined;
    return { typed, target: choiceTarget(typed) };
  },
  seatName: (_cat, seat) => commander(seat),
  rules: legioRules,
  talk: LEGIO_TALK,
  confirm(o, t, cat) {
    // The price comes with the typed choice (from servers that send it;
    // without it, nothing is asked). As the terminal asks: before ending
    // a turn with cards in hand, and before spending a whole hand of more
    // than one card (paying with the last card is picking it).
    const price = (o.typed as LegioChoice | undefined)?.price;
    if (!price) return undefined;
    const hand = legioOf(t)?.secrets?.hand ?? [];
    const names = hand.length ? ` (${hand.map((i) => cat.name("exploration", i)).join(", ")})` : "";
    if (price.pc < 0) {
      const n = price.cards || -price.pc;
      return `${plural(n, "card", "cards")} left in hand${names} cost${n === 1 ? "s" : ""} ${-price.pc} PC.`;
    }
    if (price.wholeHand && price.cards > 1) return `This spends your whole hand: ${plural(price.cards, "card", "cards")}${names}.`;
    return undefined;
  },
  newTable: (cat, hooks) => new LegioTable(cat, hooks),
  setupForm: () => setupForm(),
  ending(t) {
    const o = t.state?.outcome;
    const x = legioOf(t);
    if (!o) return undefined;
    const px = x?.outcome?.px ?? [];
    // A game cut by the round limit ranks nobody: list it by PC, then PX.
    const seats = x?.ships.map((sh) => sh.seat) ?? o.scores.map((_, i) => i);
    const byScore = [...seats].sort((a, b) => Number((o.scores[b] ?? 0n) - (o.scores[a] ?? 0n)) || (px[b] ?? 0) - (px[a] ?? 0));
    const ranked = o.ranking.length ? o.ranking : (x?.outcome?.ranking.length ? x.outcome.ranking : byScore);
    const rows = ranked.map((s, i) => h("tr", { class: o.winners.includes(s) ? "winner" : "" },
      h("td", undefined, o.truncated ? "" : `${i + 1}.`), h("td", undefined, `${commander(s)}${s === t.seat ? " (you)" : ""}`),
      h("td", undefined, `${o.scores[s] ?? 0} PC`), h("td", undefined, px[s] !== undefined ? `${px[s]} PX` : ""),
      h("td", undefined, o.winners.includes(s) ? "wins" : "")));
    const cause = o.cause.replace(/_/g, " ");
    const winners = o.winners.map(commander);
    const result = o.truncated ? "Cut by the round limit: no winner." : winners.length ? `${winners.join(" and ")} win${winners.length === 1 ? "s" : ""}.` : "Nobody reached 10 PX: no winner.";
    return {
      title: "Final scores",
      cls: "ranked",
      lines: [
        h("p", { class: "cause" }, `Ended in round ${o.round} (${cause}). ${result}`),
        h("table", { class: "scores" }, h("tbody", undefined, ...rows)),
        h("p", { class: "hint" }, "Commanders with 10 PX or more rank first, by PC then PX; then the others by PX then PC."),
      ],
      status: result,
    };
  },
  lobbyOutcome(g) {
    const o = g.outcome;
    if (!o) return "";
    if (o.truncated) return "cut by the round limit";
    return o.winners.length ? `${o.winners.map(commander).join(", ")} won` : "no winner";
  },
  drawReplay(state, cat, summary) {
    const x = LEGIO.unpack(state) as LegioState | undefined;
    if (!x) return null;
    const p: Picks = { targets: new Map(), open: false, pick: () => {}, hover: () => {} };
    return h("div", { class: "replay-step legio-replay" },
      h("p", { class: "replay-where" }, `${whereText({ state }, x)} · ${plural(x.planets.length, "active planet", "active planets")}`),
      drawNebula(x, cat, p),
      drawBoards(x, cat, summary, p, new Map(), state.decision?.deciders ?? []),
      drawTracks(x, cat, p),
      drawPrivate(x, cat, p));
  },
};
