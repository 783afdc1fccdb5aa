// The Combat board: the fight in progress (system, ships, Enemies defeated)
// and, after an attack roll, every ship's dice as rolled and changed; plus
// a one-line description of the step the rules wait in.
import type { Catalog } from "../catalog";
import { h } from "../dom";
import { DieColor, DieFace, type Hex, type Target, type XodusState } from "@xodus/client/gen/xodus/v1/state_pb";
import { label } from "./hex";
import { captainName, shipName } from "./ships";

const FACE: Record<number, string> = { [DieFace.HIT]: "✹", [DieFace.MISS]: "·", [DieFace.SPECIAL]: "★" };
const FACE_NAME: Record<number, string> = { [DieFace.HIT]: "hit", [DieFace.MISS]: "miss", [DieFace.SPECIAL]: "special" };
const COLOR: Record<number, string> = { [DieColor.RED]: "red", [DieColor.BLUE]: "blue", [DieColor.YELLOW]: "yellow" };

export function targetName(x: XodusState, cat: Catalog, t: Target | undefined): string {
  if (!t) return "?";
  if (t.target.case === "enemy") {
    const e = x.enemies[t.target.value];
    return e ? `${cat.name("enemy", e.card)} (damage ${e.damage})` : `Enemy ${t.target.value + 1}`;
  }
  if (t.target.case === "avatar") {
    const a = x.avatars[t.target.value];
    return a ? `${cat.name("avatar", a.card)} (damage ${a.damage})` : `Avatar ${t.target.value + 1}`;
  }
  return "?";
}

/** A system as the log writes it: its name and coordinates when a tile lies there. */
function place(x: XodusState, cat: Catalog, hex: Hex | undefined): string {
  const t = hex && x.tiles.find((t) => t.hex && t.hex.q === hex.q && t.hex.r === hex.r);
  return t ? `${cat.name("tile", t.tile)} ${label(hex)}` : label(hex);
}

function seatName(x: XodusState, cat: Catalog, seat: number): string {
  const sh = x.ships.find((s) => s.seat === seat);
  return captainName(seat, sh ? shipName(cat, sh.kind) : undefined);
}

/** The Combat board, or null when no fight is on. */
export function drawCombat(x: XodusState, cat: Catalog): HTMLElement | null {
  const f = x.fight;
  const step = x.step?.step;
  if (!f && step?.case !== "afterRoll") return null;
  const parts: (HTMLElement | null)[] = [];
  if (f) {
    const bits = [`at ${place(x, cat, f.hex)}`, `ships: ${f.seats.map((s) => seatName(x, cat, s)).join(", ")}`];
    if (f.pacify) bits.push("pacify fight");
    if (f.defeated) bits.push(`${f.defeated} defeated`);
    if (f.decoys) bits.push(`${f.decoys} decoyed`);
    parts.push(h("div", { class: "fight" }, bits.join(" · ")));
    const foes = x.enemies.filter((e) => e.hex && f.hex && e.hex.q === f.hex.q && e.hex.r === f.hex.r);
    const avatars = x.avatars.filter((a) => a.place.case === "hex" && f.hex && a.place.value.q === f.hex.q && a.place.value.r === f.hex.r);
    if (foes.length || avatars.length) {
      parts.push(h("div", { class: "foes" }, "Facing: ",
        ...foes.map((e) => h("span", { class: "chip foe", title: cat.text("enemy", e.card) }, `${cat.name("enemy", e.card)}${e.damage ? ` (damage ${e.damage})` : ""}`)),
        ...avatars.map((a) => h("span", { class: "chip foe avatar", title: cat.text("avatar", a.card) }, `${cat.name("avatar", a.card)}${a.damage ? ` (damage ${a.damage})` : ""}`))));
    }
  }
  if (step?.case === "manoeuvre") {
    const m = step.value;
    parts.push(h("div", undefined, `Attack on ${targetName(x, cat, m.target)}`));
    for (const c of m.chosen) {
      parts.push(h("div", { class: "manoeuvre" }, `${seatName(x, cat, c.seat)}: ${c.defenseDie !== undefined ? `Defense (${COLOR[c.defenseDie] ?? "?"} die)` : "Offense"}`));
    }
  }
  if (step?.case === "afterRoll") {
    const a = step.value;
    parts.push(h("div", undefined, `Attack on ${targetName(x, cat, a.target)}${a.ignoreShields ? " · shields ignored" : ""}${a.cancelAbility ? " · ability cancelled" : ""}`));
    for (const roll of a.rolls) {
      parts.push(h("div", { class: "roll" },
        h("span", { class: "roll-who" }, `${seatName(x, cat, roll.seat)} ${roll.offense ? "Offense" : "Defense"}:`),
        ...roll.dice.map((d, i) => {
          const flags = [d.rerolled && "rerolled", d.used && "used", d.ignored && "ignored", d.doubled && "doubled"].filter(Boolean).join(", ");
          return h("span", {
            class: `die ${COLOR[d.color] ?? ""}${d.ignored ? " ignored" : ""}${d.used ? " used" : ""}${d.doubled ? " doubled" : ""}`,
            title: `die ${i + 1}: ${COLOR[d.color] ?? "?"} ${FACE_NAME[d.face] ?? "?"}${flags ? ` (${flags})` : ""}`,
            "data-face": FACE_NAME[d.face] ?? "",
          }, FACE[d.face] ?? "?");
        }),
        roll.bonusHits ? h("span", { class: "bonus" }, `+${roll.bonusHits} hits`) : null));
    }
    if (a.grants.length) parts.push(h("div", undefined, `Rights left: ${a.grants.map((g) => seatName(x, cat, g.seat)).join(", ")}`));
  }
  return h("section", { class: "combat", "aria-label": "Combat board" }, h("h2", undefined, "Combat"), ...parts);
}

/** What the step the rules wait in carries, in one line. */
export function describeStep(x: XodusState, cat: Catalog): HTMLElement | null {
  const st = x.step?.step;
  if (!st?.case) return null;
  const seats = (list: number[]) => list.map((s) => seatName(x, cat, s)).join(", ");
  let text = "";
  let title = "";
  switch (st.case) {
    case "nextPlayer": text = "Choosing who plays next."; break;
    case "action": text = `Active: ${seats(x.active)}.`; break;
    case "fleetInvite": text = `Invitation to ${seatName(x, cat, st.value.invitee)}.`; break;
    case "orientation":
      text = `Orienting ${cat.name("tile", st.value.tile)} at ${label(st.value.hex)}.`;
      title = cat.text("tile", st.value.tile);
      break;
    case "rush": {
      const jumps = st.value.done === 1 ? "1 jump" : `${st.value.done} jumps`;
      text = `Rush: ${jumps} made from ${place(x, cat, st.value.start)}.`;
      break;
    }
    case "detection": text = `Detection roll: ${seats(st.value.seats)}.`; break;
    case "combatCommand": text = "Combat: pick a target or disengage."; break;
    case "manoeuvre": text = `Manoeuvres against ${targetName(x, cat, st.value.target)}.`; break;
    case "maintenance": text = `Maintenance: ${seats(st.value.remaining)}.`; break;
    case "keyCarrier": text = `Key ${st.value.key} needs a carrier.`; break;
    case "exploration":
      text = `Exploration: ${cat.name("exploration", st.value.card)} — ${cat.text("exploration", st.value.card)}`;
      break;
    case "revealAnywhere": text = `Reveals left: ${st.value.left}${st.value.near ? ` near ${place(x, cat, st.value.near)}` : ""}.`; break;
    case "pacifyAnywhere": text = `Pacifications left: ${st.value.left}.`; break;
    case "afterRoll": text = "The dice are on the Combat board."; break;
    case "chooseMod": text = `${seatName(x, cat, st.value.seat)} keeps a mod effect (level ${st.value.level}).`; break;
    case "giveModule":
      text = `Found module: ${cat.name("module", st.value.card)} — ${cat.text("module", st.value.card)}`;
      break;
    case "shareScraps": text = `Scraps to share: ${st.value.left}.`; break;
    case "trade": text = st.value.withAlly === undefined ? "Trade." : st.value.withAlly ? "Trade with the Ally." : "Trade between ships."; break;
    case "discardModule": text = `${seatName(x, cat, st.value.seat)} discards a module.`; break;
    case "over": text = "The game is over."; break;
  }
  return h("p", { class: "step", title }, text);
}
