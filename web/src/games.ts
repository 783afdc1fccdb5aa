// What a game brings to the page, and nothing else: a table (the parts of
// the layout drawn from its typed state and catalog, how its options aim at
// the table, its end screen and a replay step), a setup form for the
// lobby, and how it names seats. The lobby, the seat, the stream,
// reconnection, undo, clocks, errors, the decision panel, the log and the
// replay viewer are shared (lobby.ts, store.ts, shell.ts, decision.ts,
// clocks.ts, replay.ts), and so is the talk panel (talk.ts), to which a
// game brings its signals. A third game adds one GameUi to `registry.ts`;
// until it does, the page plays it on the generic table (generic.ts).
import type { Any } from "@bufbuild/protobuf/wkt";
import type { Catalog } from "./catalog";
import type { Event, GameKind, GameState, GameSummary, SeatOpenTo } from "@xodus/client/gen/tabletop/v1/game_pb";
import type { MyOption, OptionReader } from "./options";
import type { Table } from "./store";

/** What the shell hands a game's table. */
export interface TableHooks {
  /** A place of the table was picked (a map key that options aim at). */
  pick(target: string): void;
  /** The pointer or focus is on a place (or left it). */
  hover(target: string | undefined): void;
}

/** One game's part of a table: its panels, redrawn from the store. */
export interface GameTable {
  /** The panels of the left column (boards of the players). */
  readonly left: HTMLElement[];
  /** The panels of the middle column (the map, the tracks). */
  readonly mid: HTMLElement[];
  /** Panels of the right column between the decision and the log. */
  readonly right: HTMLElement[];
  /** Redraws every panel; `open` says whether picks are taken now. */
  render(t: Table, opts: MyOption[], open: boolean): void;
  /** "Round 3 · Commander 2 to play": where the game stands and who
   * decides (the pending decision's deciders), or that it is over and who
   * won, for the info bar. */
  where(t: Table): string;
  /** What the pending step carries, for the decision panel. */
  step(t: Table): HTMLElement | null;
  /** A picture drawn in an option's button before its label, if any. */
  decorate?(t: Table, o: MyOption): Element | null;
  /** An option is under the pointer (or none). */
  hover?(o: MyOption | undefined): void;
  destroy?(): void;
}

/** What the talk panel hands a game's signal buttons. */
export interface SignalHooks {
  /** Sends a signal (with whatever the text box holds). */
  send(signal: Any): void;
}

/** A game's signal buttons in the talk panel. */
export interface SignalPad {
  readonly el: HTMLElement;
  /** Follows the table (the systems revealed, the sectors); `pointed`
   * is the place of the table the user last pointed at ("q,r",
   * "sector:2"), if any. */
  update(t: Table, pointed: string | undefined): void;
}

/** What a game brings to the talk panel: its team, its signals, and the
 * place of the table a signal points at. */
export interface GameTalk {
  /** The seats play as one team: lines to the team are offered. */
  team: boolean;
  /** The game's signal buttons. */
  pad?(cat: Catalog, hooks: SignalHooks): SignalPad;
  /** The place of the table a line's signal names (a key the table marks
   * with data-hex or data-target), to highlight for a few seconds. */
  target?(signal: Any): string | undefined;
  /** A signal in the page's own words, when they should differ from the
   * server's (TalkLine.signal_words, shown otherwise). */
  words?(signal: Any): string | undefined;
}

/** The end screen's words. */
export interface Ending {
  title: string;
  /** "won", "lost" or "ranked": the end screen's style. */
  cls: string;
  lines: (Node | string)[];
  status: string;
}

/** A setup form: its fields, and what it creates (or what is wrong). */
export interface SetupForm {
  el: HTMLElement;
  read(): { kind: GameKind; seats: SeatOpenTo[]; setup: Any } | string;
  /** A line under the form. */
  hint: string;
}

export interface GameUi {
  /** The registered game type ("xodus", "legio"). */
  type: string;
  /** Its display name. */
  name: string;
  /** True for the generic table (generic.ts): a game this page has no UI
   * of its own for, played from the platform's messages alone (it needs
   * no catalog, and the lobby has no form to create it). */
  generic?: boolean;
  /** Its typed state, unpacked from GameState.detail (undefined if absent). */
  unpack(state: GameState): unknown;
  /** A log line for an event, when the game words it better than its
   * summary (default: the summary). */
  logLine?(e: Event): string;
  /** How the decision panel reads an option. */
  readOption: OptionReader;
  /** A seat's display name, the one the game's own labels and log use
   * ("Captain 1 (Pirate Ship)", "Commander 2"), from the table when there
   * is one, else from the lobby's seat role. */
  seatName(cat: Catalog, seat: number, role: string, t?: Table): string;
  newTable(cat: Catalog, hooks: TableHooks): GameTable;
  setupForm(cat: Catalog): SetupForm;
  ending(t: Table, cat: Catalog): Ending | undefined;
  /** The outcome in a few words, for the lobby. */
  lobbyOutcome(g: GameSummary): string;
  /** The "How to win" panel's text: how the game ends, who wins, what
   * the points and tracks mean. */
  rules(): HTMLElement;
  /** When an option costs more than a newcomer may expect (the whole
   * hand, PC lost), the question to ask before it is sent: what goes. */
  confirm?(o: MyOption, t: Table, cat: Catalog): string | undefined;
  /** Its part of the talk panel (none: text only, to the table or a seat). */
  talk?: GameTalk;
  /** One replayed step, drawn (null when it cannot be). */
  drawReplay(state: GameState, cat: Catalog, summary: GameSummary | undefined, asSeat: number | undefined): HTMLElement | null;
}
