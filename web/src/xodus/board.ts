// The board as SVG: revealed systems at their axial positions with their
// catalog names and coordinates (as option labels write them), lanes from
// the `lanes` bitmask, wormholes, markers, corrupt and pacified systems,
// ships and fleets, Enemies, Avatars and Allies; the tile being placed,
// with the lanes of the orientation under the pointer; the systems the
// user's options aim at are highlighted and clickable (mouse or keyboard)
// while the options are open.
import type { Catalog } from "../catalog";
import { enumSlug } from "../catalog";
import { s } from "../dom";
import {
  AllyKindSchema,
  Pacification,
  SystemKind,
  type XodusState,
} from "@xodus/client/gen/xodus/v1/state_pb";
import { SIZE, center, corners, edgeMid, key, label } from "./hex";
import type { MyOption } from "../options";
import { captainName, seatColor, shipName } from "./ships";

const KIND_CLASS: Record<number, string> = {
  [SystemKind.ALLIED]: "allied",
  [SystemKind.ENEMY]: "enemy",
  [SystemKind.CORRUPT]: "corrupt",
  [SystemKind.MAIN_RIFT]: "rift",
};

interface Piece {
  shape: "ship" | "enemy" | "avatar" | "ally";
  text: string;
  title: string;
  color?: string;
  active?: boolean;
  faded?: boolean;
  /** A small tag under the piece (a ship's fleet). */
  tag?: string;
}

export interface BoardHandlers {
  /** A highlighted system was picked. */
  pickHex(hexKey: string): void;
  /** The pointer or focus is on a highlighted system (or left it). */
  hoverHex(hexKey: string | undefined): void;
}

/** The tile an orientation decision places, and each option's lanes. */
export interface Placing {
  hex: { q: number; r: number };
  name: string;
  options: { index: number; lanes: number }[];
}

export function drawBoard(x: XodusState, cat: Catalog, targets: Map<string, MyOption[]>, on: BoardHandlers, open = true, placing?: Placing): SVGSVGElement {
  const svg = s("svg", { class: "board", role: "img", "aria-label": "The board" });
  const lanes = s("g", { class: "lanes" });
  const tiles = s("g", { class: "tiles" });
  const pieces = s("g", { class: "pieces" });
  const overlay = s("g", { class: "targets" });
  svg.append(tiles, lanes, pieces, overlay);

  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  const grow = (cx: number, cy: number) => {
    minX = Math.min(minX, cx - SIZE); maxX = Math.max(maxX, cx + SIZE);
    minY = Math.min(minY, cy - SIZE); maxY = Math.max(maxY, cy + SIZE);
  };

  const fightKey = x.fight?.hex ? key(x.fight.hex) : undefined;
  for (const t of x.tiles) {
    if (!t.hex) continue;
    const [cx, cy] = center(t.hex);
    grow(cx, cy);
    const name = cat.name("tile", t.tile);
    const cls = ["tile", KIND_CLASS[t.kind] ?? "unknown"];
    if (t.pacified === Pacification.GREEN) cls.push("pacified-green");
    if (t.pacified === Pacification.RED) cls.push("pacified-red");
    const g = s("g", { class: cls.join(" "), "data-hex": key(t.hex) });
    g.append(
      s("polygon", { points: corners(cx, cy, SIZE - 1) }),
      s("title", undefined, `${name} ${key(t.hex)}\n${cat.text("tile", t.tile)}`),
      s("text", { x: cx, y: cy - SIZE * 0.52, class: "tile-name" }, short(name, 16)),
      s("text", { x: cx, y: cy + SIZE * 0.78, class: "coord" }, label(t.hex)),
    );
    if (t.pacified !== Pacification.UNSPECIFIED) {
      g.append(s("polygon", { class: "pacify-ring", points: corners(cx, cy, SIZE - 5) }));
    }
    for (let d = 0; d < 6; d++) {
      if (t.lanes & (1 << d)) {
        const [ex, ey] = edgeMid(cx, cy, d);
        lanes.append(s("line", { x1: cx, y1: cy, x2: ex, y2: ey, class: "lane" }));
      }
    }
    let mx = cx - SIZE * 0.55;
    const my = cy - SIZE * 0.18;
    const marker = (cls2: string, text: string, title: string) => {
      g.append(s("g", { class: `marker ${cls2}` }, s("circle", { cx: mx, cy: my, r: 7 }), s("text", { x: mx, y: my + 3 }, text), s("title", undefined, title)));
      mx += 16;
    };
    if (t.wormhole) marker("wormhole", "@", "Wormhole");
    if (t.explorationMarker) marker("exploration", "?", "Exploration marker");
    if (t.keyMarker !== undefined) marker("key", `K${t.keyMarker}`, `Precursor Key ${t.keyMarker} marker`);
    if (t.riftCreated) marker("rift-open", "R", "Rift opened (red Rift marker)");
    if (t.riftDisabled) marker("rift-closed", "R", "Rift closed (white Rift marker)");
    if (t.keysActivated.length) marker("keys-active", `${t.keysActivated.length}K`, `Keys activated here: ${t.keysActivated.join(", ")}`);
    if (fightKey === key(t.hex)) marker("fight", "!", "Fight in progress");
    tiles.append(g);
  }

  // Pieces, grouped by system.
  const at = new Map<string, Piece[]>();
  const put = (h: { q: number; r: number } | undefined, p: Piece) => {
    if (!h) return;
    const list = at.get(key(h)) ?? [];
    list.push(p);
    at.set(key(h), list);
  };
  for (const sh of x.ships) {
    const name = shipName(cat, sh.kind);
    const bits = [captainName(sh.seat, name)];
    if (sh.fleet !== undefined) bits.push(`fleet ${sh.fleet}`);
    if (sh.defeated) bits.push("destroyed");
    if (sh.hidden) bits.push("hidden");
    put(sh.hex, {
      shape: "ship", text: String(sh.seat), title: bits.join(", "), color: seatColor(sh.seat),
      active: x.active.includes(sh.seat), faded: sh.defeated,
      tag: sh.fleet !== undefined && x.ships.filter((o) => o.fleet === sh.fleet).length > 1 ? `F${sh.fleet}` : undefined,
    });
  }
  x.enemies.forEach((e, i) => put(e.hex, {
    shape: "enemy", text: initials(cat.name("enemy", e.card)),
    title: `Enemy ${i + 1}: ${cat.name("enemy", e.card)}, damage ${e.damage}${e.guardsKey !== undefined ? `, guards Key ${e.guardsKey}` : ""}\n${cat.text("enemy", e.card)}`,
  }));
  x.avatars.forEach((a) => {
    if (a.place.case === "hex") put(a.place.value, {
      shape: "avatar", text: initials(cat.name("avatar", a.card)),
      title: `Avatar: ${cat.name("avatar", a.card)}, damage ${a.damage}\n${cat.text("avatar", a.card)}`,
    });
  });
  for (const al of x.allies) {
    const slug = enumSlug(AllyKindSchema, al.kind);
    const name = cat.nameById("ally", slug);
    put(al.hex, { shape: "ally", text: "A", title: `${name}; offers: ${al.offer.map((m) => cat.name("module", m)).join(", ") || "nothing"}` });
  }
  for (const [hk, list] of at) {
    const [q, r] = hk.split(",").map(Number) as [number, number];
    const [cx, cy] = center({ q, r });
    const perRow = 4;
    list.forEach((p, i) => {
      const row = Math.floor(i / perRow);
      const inRow = Math.min(perRow, list.length - row * perRow);
      const px = cx + ((i % perRow) - (inRow - 1) / 2) * 19;
      const py = cy + 12 + row * 19 - (list.length > perRow ? 8 : 0);
      pieces.append(drawPiece(p, px, py));
    });
  }

  // Systems the user's options aim at: highlighted, focusable, clickable.
  for (const [hk, opts] of targets) {
    const [q, r] = hk.split(",").map(Number) as [number, number];
    const [cx, cy] = center({ q, r });
    grow(cx, cy);
    const revealed = x.tiles.some((t) => t.hex && key(t.hex) === hk);
    const labels = opts.map((o) => `${o.index + 1}: ${o.option.label}`).join("; ");
    const g = s("g", {
      class: `target${revealed ? "" : " unrevealed"}${open ? "" : " off"}`, "data-hex": hk, tabindex: open ? 0 : -1, role: "button",
      "aria-label": `System (${hk}): ${labels}`, "aria-disabled": open ? undefined : "true",
      onclick: (ev: Event) => {
        if ((ev as MouseEvent).detail > 1) return; // a double click spends one choice
        on.pickHex(hk);
      },
      onkeydown: (ev: Event) => {
        const k = (ev as KeyboardEvent).key;
        if ((k === "Enter" || k === " ") && !(ev as KeyboardEvent).repeat) { ev.preventDefault(); on.pickHex(hk); }
      },
      onmouseenter: () => on.hoverHex(hk), onmouseleave: () => on.hoverHex(undefined),
      onfocus: () => on.hoverHex(hk), onblur: () => on.hoverHex(undefined),
    });
    g.append(s("polygon", { points: corners(cx, cy, SIZE - 3) }), s("title", undefined, labels));
    if (!revealed) {
      g.append(
        s("text", { x: cx, y: cy + 4, class: "target-text" }, opts.length > 1 ? `${opts.length} options` : `${opts[0]?.index !== undefined ? opts[0].index + 1 : ""}`),
        s("text", { x: cx, y: cy + SIZE * 0.78, class: "coord" }, `(${hk})`),
      );
    }
    overlay.append(g);
  }

  // The tile being placed: its outline and name, and each orientation's
  // lanes (shown while that option is under the pointer or focused).
  if (placing) {
    const [cx, cy] = center(placing.hex);
    grow(cx, cy);
    const g = s("g", { class: "placing", "data-hex": key(placing.hex) },
      s("polygon", { points: corners(cx, cy, SIZE - 3) }),
      s("text", { x: cx, y: cy - SIZE * 0.52, class: "tile-name" }, short(placing.name, 16)),
      s("text", { x: cx, y: cy + SIZE * 0.78, class: "coord" }, label(placing.hex)));
    for (const o of placing.options) {
      const lg = s("g", { class: "orient-lanes", "data-index": o.index });
      for (let d = 0; d < 6; d++) {
        if (!(o.lanes & (1 << d))) continue;
        const [ex, ey] = edgeMid(cx, cy, d);
        lg.append(s("line", { x1: cx, y1: cy, x2: ex, y2: ey, class: "lane" }));
      }
      g.append(lg);
    }
    overlay.append(g);
  }

  if (!Number.isFinite(minX)) { minX = -SIZE; minY = -SIZE; maxX = SIZE; maxY = SIZE; }
  // At least 7 x 5 hexes wide, so that a small board is not drawn huge.
  const w = Math.max(maxX - minX + 12, SIZE * 12);
  const hgt = Math.max(maxY - minY + 12, SIZE * 7.5);
  const cx0 = (minX + maxX) / 2;
  const cy0 = (minY + maxY) / 2;
  svg.setAttribute("viewBox", `${cx0 - w / 2} ${cy0 - hgt / 2} ${w} ${hgt}`);
  svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
  return svg;
}

function drawPiece(p: Piece, x: number, y: number): SVGGElement {
  const g = s("g", { class: `piece ${p.shape}${p.active ? " active" : ""}${p.faded ? " faded" : ""}` });
  const r = 8;
  if (p.shape === "ship") g.append(s("circle", { cx: x, cy: y, r, style: `fill:${p.color ?? "#ccc"}` }));
  else if (p.shape === "enemy") g.append(s("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r, rx: 2 }));
  else if (p.shape === "avatar") g.append(s("polygon", { points: `${x},${y - r - 2} ${x + r + 1},${y} ${x},${y + r + 2} ${x - r - 1},${y}` }));
  else g.append(s("polygon", { points: `${x},${y - r} ${x + r},${y + r - 1} ${x - r},${y + r - 1}` }));
  g.append(s("text", { x, y: y + 3 }, p.text), s("title", undefined, p.title));
  if (p.tag) g.append(s("text", { x, y: y + r + 8, class: "tag" }, p.tag));
  return g;
}

function short(text: string, n: number): string {
  return text.length > n ? `${text.slice(0, n - 1)}…` : text;
}

function initials(name: string): string {
  const words = name.replace(/^The /, "").split(/[\s-]+/).filter(Boolean);
  return words.map((w) => w[0]?.toUpperCase() ?? "").join("").slice(0, 2);
}
