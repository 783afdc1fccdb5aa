// Axial hex geometry for the map (pointy-top hexes: direction 0 is east,
// then counter-clockwise by 60 degrees, as the proto's Hex comment says).

export const SIZE = 48;
const SQRT3 = Math.sqrt(3);

export function key(h: { q: number; r: number }): string {
  return `${h.q},${h.r}`;
}

export function center(h: { q: number; r: number }): [number, number] {
  return [SIZE * SQRT3 * (h.q + h.r / 2), SIZE * 1.5 * h.r];
}

/** The six corners of a hex of radius `size` around (cx, cy), as SVG points. */
export function corners(cx: number, cy: number, size = SIZE): string {
  const pts: string[] = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 180) * (60 * i - 30);
    pts.push(`${(cx + size * Math.cos(a)).toFixed(1)},${(cy + size * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(" ");
}

/** The middle of the edge towards direction d (0 = E, 1 = NE ... 5 = SE). */
export function edgeMid(cx: number, cy: number, d: number): [number, number] {
  const a = (-60 * d * Math.PI) / 180;
  const dist = (SIZE * SQRT3) / 2;
  return [cx + dist * Math.cos(a), cy + dist * Math.sin(a)];
}

export function label(h: { q: number; r: number } | undefined): string {
  return h ? `(${h.q},${h.r})` : "";
}
