// Each ship's mat: health, energy, scraps, XP and level, actions left, its
// state flags, modules and Precursor Mod effects (catalog names, rules text
// as tooltips), Damaged cards and Keys carried.
import type { Catalog } from "../catalog";
import { h } from "../dom";
import { Claimant, type GameSummary } from "@xodus/client/gen/tabletop/v1/game_pb";
import type { Ship, XodusState } from "@xodus/client/gen/xodus/v1/state_pb";
import { captainName, seatColor, shipName } from "./ships";

export function drawMats(x: XodusState, cat: Catalog, summary: GameSummary | undefined, mySeat: number | undefined): HTMLElement {
  return h("section", { class: "mats", "aria-label": "Ship mats" }, ...x.ships.map((sh) => mat(sh, x, cat, summary, mySeat)));
}

function mat(sh: Ship, x: XodusState, cat: Catalog, summary: GameSummary | undefined, mySeat: number | undefined): HTMLElement {
  const seatInfo = summary?.seats[sh.seat];
  const who = sh.seat === mySeat ? "you" : seatInfo?.claimed ? (seatInfo.claimedBy === Claimant.AI || seatInfo.standIn ? "AI" : "human") : "open";
  const flags: string[] = [];
  if (x.active.includes(sh.seat)) flags.push("active");
  if (sh.fleet !== undefined) flags.push(`fleet ${sh.fleet}`);
  if (sh.played) flags.push("played");
  if (sh.engaged) flags.push("engaged");
  if (sh.strained) flags.push("strained");
  if (sh.hidden) flags.push("hidden");
  if (sh.disengaged) flags.push("disengaged");
  if (sh.cloaked) flags.push("cloaked");
  if (sh.rushShield) flags.push("rush shield");
  if (sh.defeated) flags.push("destroyed");
  const energyLeft = sh.energyTotal - sh.energyUsed;
  const pct = sh.maxHealth ? Math.round((100 * sh.health) / sh.maxHealth) : 0;
  const list = (title: string, cls: string, items: { name: string; text: string }[]) =>
    items.length
      ? h("div", { class: `mat-list ${cls}` }, h("span", { class: "mat-key" }, `${title}:`), ...items.map((i) => h("span", { class: "chip", title: i.text }, i.name)))
      : null;
  return h(
    "article",
    { class: `mat${sh.seat === mySeat ? " mine" : ""}${sh.defeated ? " defeated" : ""}${x.active.includes(sh.seat) ? " active" : ""}`, "data-seat": sh.seat, style: `--seat:${seatColor(sh.seat)}` },
    h("header", undefined, h("span", { class: "seat-dot" }, String(sh.seat)), h("strong", undefined, captainName(sh.seat, shipName(cat, sh.kind))), h("span", { class: "who" }, who), flags.length ? h("span", { class: "flags" }, flags.join(" · ")) : null),
    h(
      "div",
      { class: "stats" },
      h("span", { class: "health", title: "Health / max" }, h("span", { class: "bar" }, h("span", { style: `width:${pct}%` })), `♥ ${sh.health}/${sh.maxHealth}`),
      h("span", { title: "Energy left / unlocked" }, `⚡ ${energyLeft}/${sh.energyTotal}`),
      h("span", { title: "Scraps" }, `⚙ ${sh.scraps}`),
      h("span", { title: "Experience points and level" }, `XP ${sh.xp} · L${sh.level}`),
      sh.actionsLeft ? h("span", { title: "Actions left this turn" }, `▶ ${sh.actionsLeft}`) : null,
    ),
    list("Modules", "modules", sh.modules.map((m) => ({ name: cat.name("module", m), text: cat.text("module", m) }))),
    list("Mods", "mods", sh.modEffects.map((m) => ({ name: cat.name("mod_effect", m), text: cat.text("mod_effect", m) }))),
    list("Damaged", "damaged", sh.damaged.map((d) => ({ name: cat.name("damaged", d), text: cat.text("damaged", d) }))),
    list("Keys", "keys", sh.keys.map((k) => ({ name: `Key ${k}`, text: `Precursor Key ${k}` }))),
  );
}
