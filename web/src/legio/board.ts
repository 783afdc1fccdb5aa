// VII Legio's public table: the Red Nebula (five sectors and Sector X, their
// active planets with their Extrasolar cards, explored planets, the ships
// in each), the Xeno track (PX) and the PC track with the Imperator's pawn,
// the contacts A, B and X, the Imperator, the piles; and every commander's
// board (side, tracks, experts, experience, hand and objective counts,
// trophies, the last damage roll). Places the user's options aim at are
// highlighted and picked with a click (or Enter).
import type { Catalog } from "../catalog";
import { h } from "../dom";
import { Claimant, type GameSummary } from "@xodus/client/gen/tabletop/v1/game_pb";
import { Gear, Personnel, type LegioState, type Ship } from "@xodus/client/gen/legio/v1/state_pb";
import type { MyOption } from "../options";
import { seatColor } from "../xodus/ships";
import { WIN_RULE } from "./rules";
import { commander, commanders, domainName, expertName, planetName, planetSign, plural, SECTOR_X, sectorName, sideName, techName } from "./words";

export interface Picks {
  /** Options by the place they aim at. */
  targets: Map<string, MyOption[]>;
  /** Picks are taken now. */
  open: boolean;
  pick(target: string): void;
  hover(target: string | undefined): void;
}

/** Makes `el` a place the user can pick when options aim at `target`. */
export function pickable<E extends HTMLElement>(el: E, target: string, p: Picks): E {
  el.dataset.target = target;
  const opts = p.targets.get(target);
  if (!opts?.length) return el;
  el.classList.add("target");
  if (!p.open) {
    el.classList.add("off");
    return el;
  }
  el.tabIndex = 0;
  el.setAttribute("role", "button");
  el.title = opts.length === 1 ? (opts[0]?.option.label ?? "") : `${opts.length} options: ${opts.map((o) => o.option.label).join(" / ")}`;
  el.addEventListener("click", (ev) => {
    // A click on a picture inside a bigger target picks the inner one.
    ev.stopPropagation();
    if ((ev as MouseEvent).detail > 1) return;
    p.pick(target);
  });
  el.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      ev.stopPropagation();
      p.pick(target);
    }
  });
  el.addEventListener("mouseenter", () => p.hover(target));
  el.addEventListener("mouseleave", () => p.hover(undefined));
  return el;
}

function pawn(seat: number, mine: boolean): HTMLElement {
  return h("span", { class: `pawn${mine ? " mine" : ""}`, style: `--seat:${seatColor(seat)}`, title: commander(seat) + (mine ? " (you)" : "") }, String(seat + 1));
}

/** The map: S1 (Star Base) and Sector X, S2 and S3, S4 and S5. */
export function drawNebula(x: LegioState, cat: Catalog, p: Picks): HTMLElement {
  const order = [0, SECTOR_X, 1, 2, 3, 4];
  const me = x.viewerSeat;
  const cells = order.map((s) => {
    const ships = x.ships.filter((sh) => sh.sector === s);
    const planets = x.planets.filter((pl) => pl.sector === s && s !== SECTOR_X);
    const text = cat.text("sector", s);
    const borders = /Borders: (.*)\./.exec(text)?.[1]?.replace(/Sector (\d)/g, "S$1");
    const zone = /zone ([AB])/.exec(text)?.[1];
    const explored = s < SECTOR_X ? (x.explored[s] ?? 0) : 0;
    const limit = s < SECTOR_X ? /at most: (.*?)\. Borders/.exec(text)?.[1] : undefined;
    const head = h("header", undefined,
      h("strong", undefined, sectorName(s)),
      zone ? h("span", { class: "zone" }, `zone ${zone}`) : null,
      s === 0 ? h("span", { class: "base" }, "★ Star Base") : null);
    const planetList = planets.map((pl) => pickable(h("div", { class: "planet", title: cat.text("extrasolar", pl.card) },
      h("span", { class: "psign" }, planetSign(pl.token)),
      h("span", { class: "pname" }, `${planetName(pl.token)}: `, h("b", undefined, cat.name("extrasolar", pl.card))),
      h("span", { class: "pby" }, ` — found by ${commander(pl.discoverer)}${pl.discoverer === me ? " (you)" : ""}`),
      h("span", { class: "ptext" }, cat.text("extrasolar", pl.card))), `planet:${pl.token}`, p));
    const body = s === SECTOR_X
      ? h("p", { class: "hint" }, "Reached from anywhere for 6 cards, left for 3 to the Star Base; each visitor takes one X card.", x.counts ? ` X pile: ${plural(x.counts.pileX, "card", "cards")}.` : "")
      : h("p", { class: "sector-info" }, `${plural(explored, "planet", "planets")} explored${limit ? ` (at most ${limit})` : ""}`, borders ? ` · borders: ${borders}` : "");
    return pickable(h("section", { class: `sector s${s}`, "data-sector": s, title: text },
      head,
      h("div", { class: "ships" }, ...ships.map((sh) => pawn(sh.seat, sh.seat === me)), ships.length ? null : h("span", { class: "hint" }, "no ship")),
      ...planetList,
      body), `sector:${s}`, p);
  });
  return h("section", { class: "nebula", "aria-label": "The Red Nebula" }, ...cells);
}

/** A track of numbered cells with the pawns standing on them. */
function track(name: string, cls: string, max: number, pawns: { at: number; el: HTMLElement }[], marks: Record<number, string>, note?: string): HTMLElement {
  const cells: HTMLElement[] = [];
  for (let i = 0; i <= max; i++) {
    const here = pawns.filter((q) => Math.min(q.at, max) === i);
    cells.push(h("div", { class: `cell${marks[i] ? " mark" : ""}${here.length ? " held" : ""}`, title: marks[i] ?? "" }, h("span", { class: "num" }, i === max && pawns.some((q) => q.at > max) ? `${i}+` : String(i)), ...here.map((q) => q.el)));
  }
  return h("div", { class: `ltrack ${cls}`, "aria-label": name }, h("h2", undefined, name), note ? h("p", { class: "track-note" }, note) : null, h("div", { class: "cells" }, ...cells));
}

export function drawTracks(x: LegioState, cat: Catalog, p: Picks): HTMLElement {
  const me = x.viewerSeat;
  const px = track("Xeno track (PX)", "xeno", 15, x.ships.map((sh) => ({ at: sh.px, el: pawn(sh.seat, sh.seat === me) })), {
    3: "3 PX: Oz ore may be mined", 6: "6 PX: learn a technology", 9: "9 PX: Sector X opens", 10: "10 PX: may win (the most PC among commanders with 10 PX or more wins)", 12: "12 PX: Adventurers stay aboard once used", 13: "13 PX: may declare the end (the round is played out)", 15: "15 PX: the end is triggered (the round is played out)",
  }, `${WIN_RULE}. 13 PX: may declare the end; 15 PX or the Imperator at 25 triggers it; the round is played out.`);
  const imp = x.imperator?.score ?? 0;
  const top = Math.max(25, ...x.ships.map((s) => s.pc), imp);
  const pc = track("PC track (score)", "pc", Math.min(top, 40), [
    ...x.ships.map((sh) => ({ at: sh.pc, el: pawn(sh.seat, sh.seat === me) })),
    { at: imp, el: h("span", { class: "pawn imperator", title: "The Imperator" }, "I") },
  ], { 18: "18 PC: a second Secret Objective", 25: "25: the Imperator's pawn here triggers the end (the round is played out)" });
  return h("section", { class: "legio-tracks" }, px, pc, drawContacts(x, cat, p));
}

function cardChip(cat: Catalog, category: string, i: number, extra = ""): HTMLElement {
  return h("span", { class: "chip", title: cat.text(category, i), "data-card": `${category}:${cat.entry(category, i)?.id ?? i}` }, cat.name(category, i) + extra);
}

/** Contacts A (face up, face down), B, the X pile, the Imperator, piles. */
function drawContacts(x: LegioState, cat: Catalog, p: Picks): HTMLElement {
  const me = x.viewerSeat;
  const sec = x.secrets;
  const faceDown = (down: boolean, by: number[], mine: number | undefined) => {
    if (!down) return h("span", { class: "hint" }, "empty");
    const who = by.length ? ` decoded by ${commanders(by)}` : "";
    return h("span", undefined, h("span", { class: "facedown" }, "a hidden card"), mine !== undefined ? h("span", undefined, " — you decoded it: ", cardChip(cat, "extrasolar", mine)) : null, who ? h("span", { class: "hint" }, who) : null);
  };
  const a1 = x.contactA1 !== undefined ? cardChip(cat, "extrasolar", x.contactA1) : h("span", { class: "hint" }, "none");
  const imp = x.imperator;
  const c = x.counts;
  return h("div", { class: "contacts" },
    h("h2", undefined, "Contacts, Imperator, piles"),
    h("div", { class: "contact-row" },
      pickable(h("div", { class: "contact" }, h("b", undefined, "A (face up): "), a1), "contact:a1", p),
      pickable(h("div", { class: "contact" }, h("b", undefined, "A (face down): "), faceDown(x.contactA2FaceDown, x.contactA2DecodedBy, sec?.contactA2)), "contact:a2", p),
      pickable(h("div", { class: "contact" }, h("b", undefined, "B (face down): "), faceDown(x.contactBFaceDown, x.contactBDecodedBy, sec?.contactB)), "contact:b", p),
      h("div", { class: "contact" }, h("b", undefined, "X pile: "), `${c?.pileX ?? 0} cards`, x.xSeenBy.length ? h("span", { class: "hint" }, ` — seen by ${commanders(x.xSeenBy)}${me !== undefined && x.xSeenBy.includes(me) ? " (you: see your X pile below)" : ""}`) : null)),
    h("div", { class: "contact-row" },
      h("div", { class: "imperator" }, h("b", undefined, "Imperator: "), `score ${imp?.score ?? 0}`,
        imp?.card !== undefined ? h("span", undefined, " · card up: ", cardChip(cat, "imperator", imp.card)) : null,
        imp?.discard.length ? h("span", { class: "hint" }, ` · ${imp.discard.length} used`) : null)),
    c ? h("p", { class: "piles" },
      `Deck ${c.deck} · face-up discard ${x.discardUp.length} · pile A ${c.pileA} · pile B ${c.pileB} · objectives ${c.objectivePile} · Imperator deck ${c.imperatorDeck}`,
      x.supply ? ` · supply: ${x.supply.diplomats} Diplomats, ${x.supply.adventurers} Adventurers, ${x.supply.hunters} Hunters` : "") : null);
}

/** Every commander's board. */
/** Every commander's board; `deciders` are the seats the pending
 * decision waits on (marked "to play"). */
export function drawBoards(x: LegioState, cat: Catalog, summary: GameSummary | undefined, p: Picks, damage: Map<number, string>, deciders: number[] = []): HTMLElement {
  return h("section", { class: "mats boards", "aria-label": "Commanders' boards" }, ...x.ships.map((sh) => board(sh, x, cat, summary, p, damage.get(sh.seat), deciders.includes(sh.seat) && !x.outcome)));
}

/** A ship side's starting configuration (its grey boxes, what a repair
 * restores), read from the catalog's rules text of the side. */
function startOf(cat: Catalog, side: number): Record<string, number> {
  const m = /grey boxes \((\d+) propulsors, (\d+) lasers, decoder (\d+), (\d+) detectors, (\d+) squads\)/.exec(cat.text("ship", side));
  if (!m) return {};
  return { propulsors: Number(m[1]), lasers: Number(m[2]), decoder: Number(m[3]), detectors: Number(m[4]), squads: Number(m[5]) };
}

function board(sh: Ship, x: LegioState, cat: Catalog, summary: GameSummary | undefined, p: Picks, damage: string | undefined, deciding: boolean): HTMLElement {
  const me = x.viewerSeat;
  const mine = sh.seat === me;
  const seatInfo = summary?.seats[sh.seat];
  const who = mine ? "you" : seatInfo?.claimed ? (seatInfo.claimedBy === Claimant.AI || seatInfo.standIn ? "AI" : "human") : "open";
  const c = x.counts;
  const flags: string[] = [];
  if (deciding) flags.push("to play");
  if (x.first === sh.seat) flags.push("first commander");
  if (sh.specialMissions) flags.push("went to Sector X");
  const t = sh.tracks;
  const e = sh.experts;
  const start = startOf(cat, sh.side === 2 ? 1 : 0);
  const row = (label: string, n: number, target?: string, title = "", key?: string) => {
    const below = key !== undefined && start[key] !== undefined && n < (start[key] ?? 0) ? (start[key] ?? 0) - n : 0;
    const el = h("span", { class: `trk${below ? " damaged" : ""}`, title: below ? `${title}. ${below} below the starting configuration: a repair at the Star Base restores it.` : title },
      `${label} `, h("b", undefined, String(n)), below ? h("span", { class: "below" }, ` (−${below})`) : null);
    return mine && target ? pickable(el, target, p) : el;
  };
  const profile = `profile ${sh.profile}: Diplomacy +${3 - sh.profile}, Capture +${sh.profile}`;
  const list = (title: string, cls: string, items: HTMLElement[]) => (items.length ? h("div", { class: `mat-list ${cls}` }, h("span", { class: "mat-key" }, `${title}:`), ...items) : null);
  const side = sh.side === 2 ? 1 : 0;
  return pickable(h("article", {
    class: `mat board${mine ? " mine" : ""}${deciding ? " active" : ""}`, "data-seat": sh.seat, style: `--seat:${seatColor(sh.seat)}`,
  },
  h("header", undefined,
    h("span", { class: "seat-dot" }, String(sh.seat + 1)), h("strong", undefined, commander(sh.seat)), h("span", { class: "who" }, who),
    h("span", { class: "side", title: cat.text("ship", side) }, sideName(sh.side)), h("span", { class: "where" }, sectorName(sh.sector)),
    flags.length ? h("span", { class: "flags" }, flags.join(" · ")) : null),
  h("div", { class: "stats" },
    h("span", { class: "score", title: "Mapping points: the score" }, h("b", undefined, String(sh.pc)), " PC"),
    h("span", { class: "score", title: "Xenoscience points" }, h("b", undefined, String(sh.px)), " PX"),
    h("span", { title: "Exploration cards in hand" }, `${plural(c?.hands[sh.seat] ?? 0, "card", "cards")} in hand`),
    h("span", { title: "Secret Objectives kept, not revealed" }, plural(c?.objectives[sh.seat] ?? 0, "objective", "objectives")),
    (c?.offers[sh.seat] ?? 0) ? h("span", { title: "Secret Objectives on offer" }, `(${c?.offers[sh.seat]} on offer)`) : null,
    (c?.discarded[sh.seat] ?? 0) ? h("span", { title: "Cards discarded face down since the last reshuffle" }, `${c?.discarded[sh.seat]} face down`) : null,
    sh.discoveryMarkers !== undefined ? h("span", { title: "Discovery markers left: without one, nothing is discovered" }, `discovery markers ${sh.discoveryMarkers}`) : null),
  h("div", { class: "tracks-line" },
    row("Propulsors", t?.propulsors ?? 0, `gear:${Gear.PROPULSOR}`, "More cards drawn per turn", "propulsors"),
    row("Lasers", t?.lasers ?? 0, `gear:${Gear.LASER}`, "Fight Xeno ships", "lasers"),
    row("Decoder", t?.decoder ?? 0, `gear:${Gear.DECODER}`, "Reads face-down contacts", "decoder"),
    row("Detectors", t?.detectors ?? 0, `gear:${Gear.DETECTOR}`, "Avoid a Xeno ship", "detectors"),
    row("Squads", t?.squads ?? 0, `personnel:${Personnel.SQUAD}`, "Legionnaires: landings need them", "squads")),
  h("div", { class: "tracks-line" },
    row(expertName(1) + "s", e?.diplomats ?? 0, `personnel:${Personnel.DIPLOMAT}`, cat.text("expert", 0)),
    row(expertName(2) + "s", e?.adventurers ?? 0, `personnel:${Personnel.ADVENTURER}`, cat.text("expert", 1)),
    row(expertName(3) + "s", e?.hunters ?? 0, `personnel:${Personnel.HUNTER}`, cat.text("expert", 2))),
  h("div", { class: "tracks-line" },
    h("span", { class: "trk", title: "The experience table" }, `Experience: ${domainName(1)} `, h("b", undefined, String(sh.experienceDiplomacy)), `, ${domainName(2)} `, h("b", undefined, String(sh.experienceCapture))),
    h("span", { class: "trk" }, profile),
    sh.tech !== undefined ? h("span", { class: "trk", title: cat.text("tech", sh.tech - 1) }, `tech: ${techName(sh.tech)}`) : null,
    sh.imperatorCalls ? h("span", { class: "trk" }, `Imperator called ${plural(sh.imperatorCalls, "time", "times")}`) : null),
  damage ? h("div", { class: "damage", title: "The last roll on the damage table since the last repair" }, `Last damage roll: ${damage}`) : null,
  list("Trophies", "trophies", sh.trophies.map((i) => cardChip(cat, "extrasolar", i))),
  list("X cards", "xcards", sh.xCards.map((i) => cardChip(cat, "extrasolar", i))),
  list("Objectives revealed", "objectives", sh.revealedObjectives.map((i) => cardChip(cat, "objective", i))),
  ), `commander:${sh.seat}`, p);
}
