// The tile being placed: its lanes for each orientation option (from the
// catalog's printed lanes turned by the option's rotation, or read from
// the option's label), drawn as a small picture of the tile among its
// revealed neighbours, so "Lanes toward NE NW" need not be imagined.
import type { Catalog } from "../catalog";
import { s } from "../dom";
import type { XodusChoice } from "@xodus/client/gen/xodus/v1/choice_pb";
import type { XodusState } from "@xodus/client/gen/xodus/v1/state_pb";
import { corners, key } from "./hex";
import type { MyOption } from "../options";

/** The compass names of directions 0..5 (E, then counter-clockwise). */
export const DIRS = ["E", "NE", "NW", "W", "SW", "SE"] as const;
/** Axial steps towards directions 0..5. */
export const STEPS: readonly [number, number][] = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]];

/** A tile's printed lanes (before rotation) as a bit mask, from the
 * catalog's details ("lanes": "111010", sides E NE NW W SW SE). */
export function printedLanes(cat: Catalog, tile: number): number | undefined {
  try {
    const d = JSON.parse(cat.entry("tile", tile)?.detailsJson || "{}") as { lanes?: unknown };
    if (typeof d.lanes !== "string" || !/^[01]{6}$/.test(d.lanes)) return undefined;
    return [...d.lanes].reduce((m, c, i) => (c === "1" ? m | (1 << i) : m), 0);
  } catch {
    return undefined;
  }
}

/** Printed side s faces direction (s + rotation) % 6. */
export function rotateMask(mask: number, rotation: number): number {
  const r = ((rotation % 6) + 6) % 6;
  const m = mask & 0b111111;
  return ((m << r) | (m >> (6 - r))) & 0b111111;
}

/** "Lanes toward NE NW SW" -> the mask, or undefined when the label says no direction. */
export function lanesFromLabel(label: string): number | undefined {
  const m = /toward ((?:\b(?:E|NE|NW|W|SW|SE)\b\s*)+)/.exec(label);
  if (!m?.[1]) return undefined;
  return m[1].trim().split(/\s+/).reduce((acc, d) => acc | (1 << DIRS.indexOf(d as (typeof DIRS)[number])), 0);
}

/** The lanes an orientation option gives the tile being placed. */
export function optionLanes(x: XodusState | undefined, cat: Catalog, o: MyOption): number | undefined {
  const choice = o.typed as XodusChoice | undefined;
  if (choice?.action !== "orient") return undefined;
  const st = x?.step?.step;
  const printed = st?.case === "orientation" ? printedLanes(cat, st.value.tile) : undefined;
  if (printed !== undefined && choice.rotation !== undefined) return rotateMask(printed, choice.rotation);
  return lanesFromLabel(o.option.label);
}

const R = 14;
const SQ3 = Math.sqrt(3);

/** A small picture: the tile with its lanes in the middle, each revealed
 * neighbour around it (with its lane towards the tile when it has one), a
 * lane that meets a neighbour's lane drawn bright. */
export function orientPreview(x: XodusState | undefined, lanes: number): SVGSVGElement {
  const st = x?.step?.step;
  const at = st?.case === "orientation" ? st.value.hex : undefined;
  const svg = s("svg", { class: "orient-preview", viewBox: `${-2.2 * R} ${-2 * R} ${4.4 * R} ${4 * R}`, "aria-hidden": "true" });
  const pos = (dq: number, dr: number): [number, number] => [R * SQ3 * (dq + dr / 2), R * 1.5 * dr];
  const edge = (cx: number, cy: number, d: number): [number, number] => {
    const a = (-60 * d * Math.PI) / 180;
    return [cx + ((R * SQ3) / 2) * Math.cos(a), cy + ((R * SQ3) / 2) * Math.sin(a)];
  };
  const tiles = new Map((x?.tiles ?? []).filter((t) => t.hex).map((t) => [key(t.hex as { q: number; r: number }), t]));
  for (let d = 0; d < 6; d++) {
    const [dq, dr] = STEPS[d] as [number, number];
    const n = at ? tiles.get(key({ q: at.q + dq, r: at.r + dr })) : undefined;
    if (!n) continue;
    const [cx, cy] = pos(dq, dr);
    svg.append(s("polygon", { class: "pv-neighbour", points: corners(cx, cy, R - 1) }));
    const back = (d + 3) % 6;
    if (n.lanes & (1 << back)) {
      const [ex, ey] = edge(cx, cy, back);
      svg.append(s("line", { class: `pv-lane${lanes & (1 << d) ? " joined" : ""}`, x1: cx, y1: cy, x2: ex, y2: ey }));
    }
  }
  svg.append(s("polygon", { class: "pv-tile", points: corners(0, 0, R - 1) }));
  for (let d = 0; d < 6; d++) {
    if (!(lanes & (1 << d))) continue;
    const [ex, ey] = edge(0, 0, d);
    svg.append(s("line", { class: "pv-lane own", x1: 0, y1: 0, x2: ex, y2: ey }));
  }
  return svg;
}
