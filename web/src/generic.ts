// The generic table: any game the server hosts that this page has no UI
// of its own for (High Card, a game added to the server tomorrow), drawn
// from the platform's messages alone (tabletop.v1): the game's type as its
// name, the seats and who holds them (GameSummary), who decides and the
// decision's prompt and options (GameState.decision: the shared decision
// panel draws them as buttons with their keys), the events' summary lines
// (the shared log), the outcome (cooperative: won or lost and why; ranked:
// scores, ranking, winners; cut short), undo when `can_undo`, clocks and
// replays as for every game. It reads no typed `detail` and no JSON view:
// nothing game-specific, and so nothing a seat may not see but what the
// server put in its words. Joining and leaving a seat are the lobby's and
// the shell's, as for every game.
import { Catalog, humanize } from "./catalog";
import { h, replace } from "./dom";
import type { Ending, GameTable, GameUi, SetupForm } from "./games";
import { Claimant, OutcomeKind, SeatOpenTo, type GameState, type GameSummary, type Outcome } from "@xodus/client/gen/tabletop/v1/game_pb";
import type { Table } from "./store";

/** The catalog of a game this page knows nothing of: the generic table
 * names nothing from it. */
export const NO_CATALOG = new Catalog([]);

/** What the store keeps as the "typed state" of a generic table: a mark
 * that the state is in, not the state's detail (never read). */
const NO_DETAIL = Object.freeze({ generic: true });

/** "high_card" -> "High Card": a registered type as a name. */
export function typeName(type: string): string {
  const words = type.split(/[_\-\s]+/).filter((w) => w);
  return words.length ? words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(" ") : type;
}

/** "Seat 0 (North)": a seat by its number and the role the game gave it. */
function seatName(seat: number, role: string): string {
  return role ? `Seat ${seat} (${humanize(role)})` : `Seat ${seat}`;
}

/** A seat's name from the lobby data. */
function seatOf(summary: GameSummary | undefined, seat: number): string {
  return seatName(seat, summary?.seats[seat]?.role ?? "");
}

/** Who holds a seat, in a word or three. */
function holder(t: Table, seat: number): string {
  const s = t.summary?.seats[seat];
  if (seat === t.seat) return "you";
  if (!s) return "";
  if (s.claimed) return s.standIn ? "AI stand-in" : s.claimedBy === Claimant.AI ? "AI" : "human";
  return `free (for ${s.openTo === SeatOpenTo.AI ? "AI" : s.openTo === SeatOpenTo.ANY ? "anyone" : "humans"})`;
}

function joinNames(names: string[]): string {
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** True when the outcome is to be read by scores and ranking. */
function isRanked(o: Outcome): boolean {
  return o.kind === OutcomeKind.RANKED || (o.kind !== OutcomeKind.TEAM && o.scores.length > 0);
}

/** The result in a sentence: who won, or that nobody did, or that the
 * team won or lost. */
function resultText(o: Outcome, name: (seat: number) => string): string {
  if (!isRanked(o)) return o.won ? "The players won." : "The players lost.";
  if (o.truncated) return "Cut short: no ranking, no winner.";
  const w = o.winners.map(name);
  return w.length ? `${joinNames(w)} win${w.length === 1 ? "s" : ""}.` : "No winner.";
}

/** Why and when it ended: "Ended by hands played, in round 3." */
function causeText(o: Outcome): string {
  const cause = o.cause ? ` by ${humanize(o.cause).toLowerCase()}` : "";
  return `Ended${cause}${o.round ? `, in round ${o.round}` : ""}.`;
}

/** The seats in the order the outcome ranks them (by score when it ranks
 * nobody: a game cut short), each with its score and whether it won. */
function scoreTable(o: Outcome, name: (seat: number) => string, you: number | undefined): HTMLElement {
  const seats = o.scores.map((_, i) => i);
  const order = o.ranking.length ? [...o.ranking, ...seats.filter((s) => !o.ranking.includes(s))]
    : seats.sort((a, b) => Number((o.scores[b] ?? 0n) - (o.scores[a] ?? 0n)) || a - b);
  return h("table", { class: "scores" }, h("tbody", undefined, ...order.map((s, i) =>
    h("tr", { class: o.winners.includes(s) ? "winner" : "", "data-seat": s },
      h("td", undefined, o.ranking.length ? `${i + 1}.` : ""),
      h("td", undefined, `${name(s)}${s === you ? " (you)" : ""}`),
      h("td", { class: "score" }, `${o.scores[s] ?? 0}`),
      h("td", undefined, o.winners.includes(s) ? "wins" : "")))));
}

/** The outcome as lines: the cause, the result, and the scores. */
function outcomeLines(o: Outcome, name: (seat: number) => string, you: number | undefined): HTMLElement[] {
  return [
    h("p", { class: "cause" }, `${causeText(o)} ${resultText(o, name)}`),
    isRanked(o) && o.scores.length ? scoreTable(o, name, you) : null,
  ].filter((e): e is HTMLElement => !!e);
}

/** Where the game stands: who decides, or that it is over. */
function whereText(t: { state?: GameState; summary?: GameSummary; seat?: number }): string {
  const st = t.state;
  if (!st) return "";
  const name = (s: number) => seatOf(t.summary, s);
  if (st.outcome) return `Game over: ${resultText(st.outcome, name).replace(/\.$/, "")}`;
  const deciders = st.decision?.deciders ?? [];
  if (!deciders.length) return "Waiting";
  if (deciders.length === 1 && deciders[0] === t.seat) return "Your turn";
  const who = joinNames(deciders.map((s) => (s === t.seat ? "you" : name(s))));
  return `${who.charAt(0).toUpperCase()}${who.slice(1)} to play`;
}

class GenericTable implements GameTable {
  private seatsBox = h("section", { class: "generic-seats", "aria-label": "Seats" });
  private tableBox = h("section", { class: "generic-table", "aria-label": "Table" });
  readonly left = [this.seatsBox];
  readonly mid = [this.tableBox];
  readonly right: HTMLElement[] = [];

  constructor(private name: string) {}

  where(t: Table): string {
    return whereText(t);
  }

  render(t: Table): void {
    const st = t.state;
    const o = st?.outcome;
    const deciders = o ? [] : (st?.decision?.deciders ?? []);
    const seats = t.summary?.seats ?? [];
    replace(this.seatsBox, h("h2", undefined, "Seats"), h("ul", { class: "generic-seat-list" }, ...seats.map((s) => {
      const who = holder(t, s.seat);
      const deciding = deciders.includes(s.seat);
      const won = !!o && o.winners.includes(s.seat);
      return h("li", {
        class: ["generic-seat", s.seat === t.seat ? "mine" : "", deciding ? "deciding" : "", won ? "winner" : "", s.claimed ? "" : "free"].filter(Boolean).join(" "),
        "data-seat": s.seat,
      },
      h("span", { class: "name" }, seatName(s.seat, s.role)),
      h("span", { class: "who" }, who),
      deciding ? h("span", { class: "turn" }, "▶ to play") : null,
      o && isRanked(o) ? h("span", { class: "score" }, `score ${o.scores[s.seat] ?? 0}`) : null,
      won ? h("span", { class: "won" }, "wins") : null);
    })));
    replace(this.tableBox,
      h("h2", undefined, this.name),
      h("p", { class: "generic-where" }, whereText(t)),
      st ? h("p", { class: "generic-seq" }, `${st.seq} choice${st.seq === 1n ? "" : "s"} made`) : null,
      ...(o ? outcomeLines(o, (s) => seatOf(t.summary, s), t.seat) : []),
      h("p", { class: "hint" }, `This page has no board for ${this.name}: it plays it from what the server tells of every game: whose decision it is, its options, the log of events and the outcome. Your options name what your seat may see, and nothing more.`));
  }

  step(): HTMLElement | null {
    return null;
  }
}

function rules(name: string): HTMLElement {
  return h("div", { class: "rules-text" },
    h("p", undefined, `This page has no rules text for ${name}: it knows the game only from what the server says of every game.`),
    h("ul", undefined,
      h("li", undefined, "The decision panel says whose decision it is and what it asks; when it is yours, its options are buttons, picked with a click or their key (1-9, then letters)."),
      h("li", undefined, "The log tells what happened, in the server's words."),
      h("li", undefined, "Undo (U) takes back your last choice when the game allows it."),
      h("li", undefined, "At the end, the end screen shows the outcome: won or lost in a cooperative game; the scores, the ranking and the winners in a competitive one.")));
}

function setupForm(type: string): SetupForm {
  // The lobby creates only the games it has a form for; this one says how.
  const el = h("div", { class: "setup", "data-game-type": type }, h("p", { class: "hint" }, `Create ${typeName(type)} games with the API or \`xodus create --game ${type}\`.`));
  return { el, read: () => `This page cannot create ${typeName(type)} games.`, hint: "" };
}

const made = new Map<string, GameUi>();

/** The generic table's GameUi for a game type this page has no UI for. */
export function genericUi(type: string): GameUi {
  let ui = made.get(type);
  if (ui) return ui;
  const name = typeName(type);
  ui = {
    type,
    name,
    generic: true,
    unpack: () => NO_DETAIL,
    readOption: () => ({}),
    seatName: (_cat, seat, role, t) => seatName(seat, t?.summary?.seats[seat]?.role ?? role),
    newTable: () => new GenericTable(name),
    setupForm: () => setupForm(type),
    ending(t): Ending | undefined {
      const o = t.state?.outcome;
      if (!o) return undefined;
      const seat = (s: number) => seatOf(t.summary, s);
      const result = resultText(o, seat);
      if (!isRanked(o)) {
        return { title: o.won ? "Victory!" : "Defeat", cls: o.won ? "won" : "lost", lines: outcomeLines(o, seat, t.seat), status: result };
      }
      return { title: o.truncated ? "Cut short" : "Final scores", cls: "ranked", lines: outcomeLines(o, seat, t.seat), status: result };
    },
    lobbyOutcome(g) {
      const o = g.outcome;
      if (!o) return "";
      if (!isRanked(o)) return `${o.won ? "won" : "lost"}${o.cause ? `: ${humanize(o.cause).toLowerCase()}` : ""}`;
      if (o.truncated) return "cut short";
      return o.winners.length ? `${o.winners.map((s) => seatOf(g, s)).join(", ")} won` : "no winner";
    },
    rules: () => rules(name),
    drawReplay(state, _cat, summary, asSeat) {
      const d = state.decision;
      const o = state.outcome;
      const mine = asSeat !== undefined && !o && !!d?.deciders.includes(asSeat);
      const opts = mine && d ? d.options.filter((x) => !x.seats.length || x.seats.includes(asSeat)) : [];
      return h("div", { class: "replay-step generic-replay" },
        h("p", { class: "replay-where" }, whereText({ state, summary, seat: asSeat })),
        d && !o ? h("p", { class: "prompt" }, d.prompt) : null,
        opts.length ? h("ul", { class: "replay-options" }, ...opts.map((x) => h("li", undefined, x.label))) : null,
        ...(o ? outcomeLines(o, (s) => seatOf(summary, s), asSeat) : []));
    },
  };
  made.set(type, ui);
  return ui;
}
