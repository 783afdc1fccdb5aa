// X-ODUS in the page: its table (the mats, the hex board, the Corruption
// track, Signals and decks, the Combat board; options aiming at a system
// are picked on the map, an orientation draws the tile's lanes), its
// setup form (ships, difficulty, Allies, nightmare, seed, who takes each
// seat), its signals at the talk panel (talk.ts), its end screen and its
// replay step.
import { create } from "@bufbuild/protobuf";
import { anyPack, anyUnpack } from "@bufbuild/protobuf/wkt";
import type { Catalog } from "../catalog";
import { humanize } from "../catalog";
import { h, replace } from "../dom";
import type { GameTable, GameUi, SetupForm, TableHooks } from "../games";
import { GameKind, SeatOpenTo } from "@xodus/client/gen/tabletop/v1/game_pb";
import { XodusChoiceSchema } from "@xodus/client/gen/xodus/v1/choice_pb";
import { XodusSetupSchema } from "@xodus/client/gen/xodus/v1/setup_pb";
import { XodusStateSchema, type XodusState } from "@xodus/client/gen/xodus/v1/state_pb";
import { byTarget, type MyOption } from "../options";
import { parseSeed, whoSelect } from "../setup";
import type { Table } from "../store";
import { drawBoard, type Placing } from "./board";
import { describeStep, drawCombat } from "./combat";
import { key } from "./hex";
import { drawMats } from "./mats";
import { optionLanes, orientPreview } from "./orient";
import { xodusRules } from "./rules";
import { captainName, roleName, shipName } from "./ships";
import { XODUS_TALK } from "./talk";
import { drawCorruption, drawDecks, drawSignals } from "./tracks";

function xodusOf(t: Table): XodusState | undefined {
  return t.detail as XodusState | undefined;
}

class XodusTable implements GameTable {
  private boardBox = h("div", { class: "board-box" });
  private matsBox = h("div", { class: "mats-box" });
  private tracksBox = h("div", { class: "tracks-box" });
  private combatBox = h("div", { class: "combat-box" });
  readonly left = [this.matsBox];
  readonly mid = [this.boardBox, this.tracksBox];
  readonly right = [this.combatBox];
  private opts: MyOption[] = [];

  constructor(private cat: Catalog, private hooks: TableHooks) {}

  where(t: Table): string {
    const x = xodusOf(t);
    const o = t.state?.outcome;
    if (o) return `Game over: the captains ${o.won ? "won" : "lost"} (${humanize(o.cause).toLowerCase()}, round ${o.round})`;
    return x ? `Round ${x.round} · ${humanize(x.phase || "")}` : "";
  }

  render(t: Table, opts: MyOption[], open: boolean): void {
    const x = xodusOf(t);
    if (!x) return;
    this.opts = opts;
    replace(this.boardBox, drawBoard(x, this.cat, byTarget(opts), {
      pickHex: (k) => this.hooks.pick(k),
      hoverHex: (k) => this.hooks.hover(k),
    }, open, this.placing(x)));
    replace(this.matsBox, drawMats(x, this.cat, t.summary, t.seat));
    replace(this.tracksBox, drawCorruption(x, this.cat), h("div", { class: "tracks-row" }, drawSignals(x, this.cat), drawDecks(x, this.cat)));
    replace(this.combatBox, drawCombat(x, this.cat));
  }

  step(t: Table): HTMLElement | null {
    const x = xodusOf(t);
    return x ? describeStep(x, this.cat) : null;
  }

  decorate(t: Table, o: MyOption): Element | null {
    const x = xodusOf(t);
    const lanes = optionLanes(x, this.cat, o);
    return lanes !== undefined ? orientPreview(x, lanes) : null;
  }

  hover(o: MyOption | undefined): void {
    for (const el of this.boardBox.querySelectorAll(".orient-lanes.show")) el.classList.remove("show");
    if (o) this.boardBox.querySelector(`.orient-lanes[data-index="${o.index}"]`)?.classList.add("show");
  }

  /** The orientation decision's tile and each option's lanes, for the map. */
  private placing(x: XodusState): Placing | undefined {
    const st = x.step?.step;
    if (st?.case !== "orientation" || !st.value.hex) return undefined;
    const options: Placing["options"] = [];
    for (const o of this.opts) {
      const lanes = optionLanes(x, this.cat, o);
      if (lanes !== undefined) options.push({ index: o.index, lanes });
    }
    return { hex: st.value.hex, name: this.cat.name("tile", st.value.tile), options };
  }
}

/** The X-ODUS setup form. Field ids are unprefixed (#ship-count, #who-0,
 * #seed...), as they were when the page played X-ODUS only. */
function setupForm(cat: Catalog): SetupForm {
  const ships = cat.entriesOf("ship");
  const allies = cat.entriesOf("ally");
  const countSel = h("select", { id: "ship-count", name: "count" }, h("option", { value: "3" }, "3 ships"), h("option", { value: "4" }, "4 ships"));
  const seatRows: { row: HTMLElement; ship: HTMLSelectElement; who: HTMLSelectElement }[] = [];
  for (let i = 0; i < 4; i++) {
    const ship = h("select", { id: `ship-${i}`, "aria-label": `Ship of Captain ${i}` }, h("option", { value: "" }, "random ship"), ...ships.map((s) => h("option", { value: s.id }, s.name)));
    const who = whoSelect(`who-${i}`, `Who takes Captain ${i}`, "AI captain", i === 0);
    const row = h("div", { class: "seat-row" }, h("span", undefined, `Captain ${i}`), ship, who);
    seatRows.push({ row, ship, who });
  }
  const difficulty = h("select", { id: "difficulty" }, ...["casual", "hardened", "heroic"].map((d) => h("option", { value: d }, humanize(d))));
  const nightmare = h("input", { type: "checkbox", id: "nightmare" });
  const seedInput = h("input", { type: "text", id: "seed", inputmode: "numeric", placeholder: "random", "aria-label": "Seed", size: "20" });
  const allySels = [0, 1].map((i) => h("select", { id: `ally-${i}`, "aria-label": `Ally ${i + 1}` }, h("option", { value: "" }, "random Ally"), ...allies.map((a) => h("option", { value: a.id }, a.name))));
  const sync = () => {
    const n = Number(countSel.value);
    seatRows.forEach((r, i) => (r.row.hidden = i >= n));
  };
  countSel.addEventListener("change", sync);
  sync();
  const read: SetupForm["read"] = () => {
    const n = Number(countSel.value);
    const rows = seatRows.slice(0, n);
    const setShips = rows.map((r) => r.ship.value).filter(Boolean);
    if (setShips.length && setShips.length !== n) return "Choose every ship, or none for a random draw.";
    if (new Set(setShips).size !== setShips.length) return "Each ship can sail only once.";
    const allyIds = allySels.map((s) => s.value).filter(Boolean);
    if (allyIds.length === 1) return "Choose both Allies, or none for a random draw.";
    if (allyIds.length === 2 && allyIds[0] === allyIds[1]) return "Choose two different Allies.";
    const seed = parseSeed(seedInput.value);
    if (seed === null) return "The seed is a whole number from 0 to 18446744073709551615, or empty for a random game.";
    const seats = rows.map((r) => (r.who.value === "ai" ? SeatOpenTo.AI : r.who.value === "any" ? SeatOpenTo.ANY : SeatOpenTo.HUMAN));
    const setup = create(XodusSetupSchema, { shipCount: n, ships: setShips, difficulty: difficulty.value, allies: allyIds, nightmare: nightmare.checked, seed });
    return { kind: GameKind.XODUS, seats, setup: anyPack(XodusSetupSchema, setup) };
  };
  const el = h("div", { class: "setup setup-xodus", "data-game-type": "xodus" },
    h("label", undefined, "Ships ", countSel),
    ...seatRows.map((r) => r.row),
    h("label", undefined, "Difficulty ", difficulty),
    h("label", { class: "check" }, nightmare, " True nightmare (+1 Avatar move)"),
    h("div", { class: "ally-row" }, h("span", undefined, "Allies"), ...allySels),
    h("label", undefined, "Seed ", seedInput));
  return { el, read, hint: "Co-operative: the captains win or lose together. AI captains take the AI seats." };
}

export const XODUS: GameUi = {
  type: "xodus",
  name: "X-ODUS",
  unpack: (state) => (state.detail.case === "gameState" ? anyUnpack(state.detail.value, XodusStateSchema) : undefined),
  readOption: (option) => {
    const typed = option.detail ? anyUnpack(option.detail, XodusChoiceSchema) : undefined;
    return { typed, target: typed?.hex ? key(typed.hex) : undefined };
  },
  seatName(cat, seat, role, t) {
    const sh = (t?.detail as XodusState | undefined)?.ships.find((v) => v.seat === seat);
    return captainName(seat, sh ? shipName(cat, sh.kind) : role ? roleName(cat, role) : undefined);
  },
  rules: xodusRules,
  talk: XODUS_TALK,
  newTable: (cat, hooks) => new XodusTable(cat, hooks),
  setupForm,
  ending(t) {
    const o = t.state?.outcome;
    if (!o) return undefined;
    return {
      title: o.won ? "Victory!" : "Defeat",
      cls: o.won ? "won" : "lost",
      lines: [h("p", { class: "cause" }, `${humanize(o.cause)} in round ${o.round}.`)],
      status: o.won ? "The captains won." : "The captains lost.",
    };
  },
  lobbyOutcome: (g) => (g.outcome ? `${g.outcome.won ? "won" : "lost"}: ${humanize(g.outcome.cause)}` : ""),
  drawReplay(state, cat, summary, asSeat) {
    const x = XODUS.unpack(state) as XodusState | undefined;
    if (!x) return null;
    return h("div", { class: "replay-step" },
      h("p", { class: "replay-where" }, `Round ${x.round} · ${humanize(x.phase || "")}`),
      drawBoard(x, cat, new Map(), { pickHex: () => {}, hoverHex: () => {} }, false),
      drawMats(x, cat, summary, asSeat));
  },
};
