// VII Legio's words for the page: commanders ("Commander 2" for seat 1, as
// the server's log and the terminal say), sectors, planets, and the enums
// of the typed state, plus the place each option aims at on the table.
import type { LegioChoice } from "@xodus/client/gen/legio/v1/choice_pb";
import { Domain, ExpertKind, Gear, Personnel, PurposeKind, Side, Tech, type Purpose } from "@xodus/client/gen/legio/v1/state_pb";

export const PLANETS = ["alpha", "beta", "gamma", "delta", "epsilon"];
const GREEK = ["α", "β", "γ", "δ", "ε"];
export const SECTOR_X = 5;

/** How a successful mission's PC are shared, in words (the rules' own
 * arithmetic stays in the engine; the page shows the PC each one got). */
export const SHARES = "the card's PC are split in equal parts among the participants and the Imperator if called (the active commander's part rounded up, the others' down; a Spatha gets half its share of a zone A card).";

export function commander(seat: number): string {
  return `Commander ${seat + 1}`;
}

export function commanders(seats: number[]): string {
  const names = seats.map((s) => String(s + 1));
  if (!names.length) return "nobody";
  if (names.length === 1) return `Commander ${names[0]}`;
  return `Commanders ${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

export function sectorName(s: number): string {
  return s === SECTOR_X ? "Sector X" : `Sector ${s + 1}`;
}

export function planetName(token: number): string {
  return `planet ${PLANETS[token] ?? token}`;
}

export function planetSign(token: number): string {
  return GREEK[token] ?? "?";
}

export function sideName(s: Side): string {
  return s === Side.SPATHA ? "Spatha" : "Frombola";
}

export function domainName(d: Domain): string {
  return d === Domain.DIPLOMACY ? "Diplomacy" : d === Domain.CAPTURE ? "Capture" : "not named yet";
}

export function expertName(k: ExpertKind): string {
  return k === ExpertKind.DIPLOMAT ? "Diplomat" : k === ExpertKind.ADVENTURER ? "Adventurer" : "Hunter";
}

export function techName(t: Tech): string {
  return t === Tech.HOLODECK ? "Holodeck" : "Nanoprobes";
}

export function personnelName(p: Personnel): string {
  return ({ [Personnel.SQUAD]: "squad", [Personnel.DIPLOMAT]: "Diplomat", [Personnel.ADVENTURER]: "Adventurer", [Personnel.HUNTER]: "Hunter" } as Record<number, string>)[p] ?? "personnel";
}

export function gearName(g: Gear): string {
  return ({ [Gear.PROPULSOR]: "propulsor", [Gear.LASER]: "laser", [Gear.DECODER]: "decoder level", [Gear.DETECTOR]: "risk detector" } as Record<number, string>)[g] ?? "equipment";
}

export function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** What a run of card payments is for, in words. */
export function purposeText(p: Purpose | undefined, cardName: (i: number) => string): string {
  switch (p?.kind) {
    case PurposeKind.RECRUIT: return `recruit a ${personnelName(p.personnel)}`;
    case PurposeKind.EQUIP: return `install a ${gearName(p.gear)}`;
    case PurposeKind.MOVE: return `cross the border into ${sectorName(p.sector ?? 0)}`;
    case PurposeKind.ENTER_X: return "enter Sector X";
    case PurposeKind.LEAVE_X: return "leave Sector X for the Star Base";
    case PurposeKind.DECODE: return `decode the face-down ${p.slot === 1 ? "B" : "A"} contact`;
    case PurposeKind.RISK: return `the risk of ${p.card !== undefined ? cardName(p.card) : "the card explored"}`;
    default: return "the move";
  }
}

/** The place of the table an option aims at: a sector, a planet, a card in
 * hand, an objective, an X card, a contact, a commander, a track of one's
 * own board. */
export function choiceTarget(c: LegioChoice | undefined): string | undefined {
  const ch = c?.choice;
  switch (ch?.case) {
    case "move": return `sector:${ch.value}`;
    case "enterSectorX": return `sector:${SECTOR_X}`;
    case "leaveSectorX": return "sector:0";
    case "land": return `planet:${ch.value}`;
    case "explore":
    case "discard": return `card:${ch.value}`;
    case "objective": return `objective:${ch.value}`;
    case "xCard": return `x:${ch.value}`;
    case "decode": return ch.value === 0 ? "contact:a2" : "contact:b";
    case "contact": return ch.value === 0 ? "contact:a1" : "contact:a2";
    case "invite": return `commander:${ch.value}`;
    case "equip": return `gear:${ch.value}`;
    case "recruit": return `personnel:${ch.value}`;
    default: return undefined;
  }
}
