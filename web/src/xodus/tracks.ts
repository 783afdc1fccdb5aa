// The side boards: the Corruption track with its Avatars and face-down
// tokens, the Precursor Signals and Keys, the Allies met, and the sizes of
// the face-down decks and supplies.
import type { Catalog } from "../catalog";
import { enumSlug } from "../catalog";
import { h } from "../dom";
import { captainName, shipName } from "./ships";
import { AllyKindSchema, type XodusState } from "@xodus/client/gen/xodus/v1/state_pb";

export function drawCorruption(x: XodusState, cat: Catalog): HTMLElement {
  const c = x.corruption;
  const rise = c?.rise ?? 0;
  const cells: HTMLElement[] = [];
  for (let i = 0; i <= rise; i++) {
    const here: HTMLElement[] = [];
    if (c?.faceDown.includes(i)) here.push(h("span", { class: "token facedown", title: "Face-down Avatar token" }, "?"));
    for (const a of x.avatars) {
      if (a.place.case === "matSpace" && a.place.value === i) {
        here.push(h("span", { class: "token avatar", title: `${cat.name("avatar", a.card)}\n${cat.text("avatar", a.card)}` }, cat.name("avatar", a.card).replace(/^The /, "").slice(0, 3)));
      }
    }
    if (c?.redBoxes.includes(i)) here.push(h("span", { class: "token redbox", title: "Reinforces the Enemy deck" }, "■"));
    const cls = ["cell"];
    if (c && i === c.position) cls.push("marker");
    if (i === rise) cls.push("rise");
    if (c && i < c.position) cls.push("past");
    cells.push(h("div", { class: cls.join(" "), title: i === rise ? "Rise of the Corruption" : `Space ${i}` }, h("span", { class: "num" }, String(i)), ...here));
  }
  const gone = x.avatars.filter((a) => a.place.case === "gone").map((a) => cat.name("avatar", a.card));
  const notes: string[] = [];
  if (c) {
    notes.push(`Corruption ${c.position}/${rise}`);
    if (c.movementThisTurn) notes.push(`Avatar move ${signed(c.movementThisTurn)} this round`);
    if (c.movementPermanent) notes.push(`Avatar move ${signed(c.movementPermanent)} permanent`);
    if (c.riftRush) notes.push("Rift rush!");
  }
  if (gone.length) notes.push(`Gone: ${gone.join(", ")}`);
  return h("section", { class: "corruption", "aria-label": "Corruption track" }, h("h2", undefined, notes.join(" · ")), h("div", { class: "track" }, ...cells));
}

function shipOf(x: XodusState, cat: Catalog, seat: number): string | undefined {
  const sh = x.ships.find((s) => s.seat === seat);
  return sh ? shipName(cat, sh.kind) : undefined;
}

export function drawSignals(x: XodusState, cat: Catalog): HTMLElement {
  const carrier = new Map<number, number>();
  for (const sh of x.ships) for (const k of sh.keys) carrier.set(k, sh.seat);
  const activated = new Set<number>();
  for (const t of x.tiles) for (const k of t.keysActivated) activated.add(k);
  return h(
    "section",
    { class: "signals", "aria-label": "Precursor Signals and Keys" },
    h("h2", undefined, "Signals & Keys"),
    ...x.signals.map((sl) => {
      const name = sl.card !== undefined ? cat.name("signal", sl.card) : "face down";
      const keyState = activated.has(sl.key) ? "activated" : carrier.has(sl.key) ? `carried by ${captainName(carrier.get(sl.key) as number, shipOf(x, cat, carrier.get(sl.key) as number))}` : sl.solved ? "accessed" : "on its Signal";
      return h(
        "div",
        { class: `signal${sl.solved ? " solved" : ""}`, title: sl.card !== undefined ? cat.text("signal", sl.card) : "Not revealed yet" },
        h("strong", undefined, `K${sl.key}`), ` ${name}`,
        sl.progress ? h("span", { class: "progress" }, ` (progress ${sl.progress})`) : null,
        h("span", { class: "keystate" }, ` — Key ${keyState}`),
      );
    }),
  );
}

export function drawDecks(x: XodusState, cat: Catalog): HTMLElement {
  const d = x.decks;
  const item = (label: string, n: number | string, title = "") => h("span", { class: "deck", title }, `${label} `, h("b", undefined, String(n)));
  const allies = x.allies.map((a) => {
    const name = cat.nameById("ally", enumSlug(AllyKindSchema, a.kind));
    return h("div", { class: "ally" }, h("strong", undefined, name), ": ", a.offer.map((m) => cat.name("module", m)).join(", ") || "no offer");
  });
  const config = x.config;
  const allyNames = config?.allies.map((k) => cat.nameById("ally", enumSlug(AllyKindSchema, k))) ?? [];
  return h(
    "section",
    { class: "decks", "aria-label": "Decks and supplies" },
    h("h2", undefined, "Decks"),
    h(
      "div",
      { class: "deck-row" },
      item("Systems", d?.systemStack ?? 0, x.piles.map((p) => `${p.remaining}${p.bottom ? " (bottom)" : ""}`).join(" / ")),
      item("Enemies", d?.enemyDeck ?? 0, d ? `per level: ${d.enemyDeckLevels.join(", ")}` : ""),
      item("Reserve", d?.enemyReserve ?? 0, d ? `per level: ${d.enemyReserveLevels.join(", ")}` : ""),
      item("Damaged", d?.damagedDeck ?? 0),
      item("Modules", d?.moduleDeck ?? 0),
      item("Precursor", d?.precursorDeck ?? 0),
      item("Explorations", d?.explorationDeck ?? 0),
      item("Explore markers", x.explorationSupply),
      item("Pacify markers", x.pacifySupply),
    ),
    allyNames.length ? h("div", { class: "allies-conf" }, `Allies in the deck: ${allyNames.join(", ")}`) : null,
    ...allies,
  );
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}
