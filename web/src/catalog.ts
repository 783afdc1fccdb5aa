// The game's content catalog (GetCatalog "xodus"): names and rules text of
// tiles, cards, modules, ships and Allies, looked up by category and index
// (as states and options carry them) or by text id (as events do).
import type { DescEnum } from "@bufbuild/protobuf";
import { api } from "./client";
import type { CatalogEntry } from "./gen/tabletop/v1/service_pb";

export class Catalog {
  private byIndex = new Map<string, CatalogEntry>();
  private byId = new Map<string, CatalogEntry>();

  constructor(entries: CatalogEntry[]) {
    for (const e of entries) {
      this.byIndex.set(`${e.category}#${e.index}`, e);
      this.byId.set(`${e.category}:${e.id}`, e);
    }
  }

  entry(category: string, index: number): CatalogEntry | undefined {
    return this.byIndex.get(`${category}#${index}`);
  }

  entryById(category: string, id: string): CatalogEntry | undefined {
    return this.byId.get(`${category}:${id}`);
  }

  /** The display name, or "category #n" when the catalog lacks it. */
  name(category: string, index: number): string {
    return this.entry(category, index)?.name ?? `${category} #${index}`;
  }

  /** The rules text (for tooltips). */
  text(category: string, index: number): string {
    return this.entry(category, index)?.text ?? "";
  }

  nameById(category: string, id: string): string {
    return this.entryById(category, id)?.name ?? id.replace(/_/g, " ");
  }

  entriesOf(category: string): CatalogEntry[] {
    return [...this.byIndex.values()].filter((e) => e.category === category).sort((a, b) => a.index - b.index);
  }
}

let cached: Promise<Catalog> | undefined;

/** The X-ODUS catalog, fetched once. */
export function loadCatalog(): Promise<Catalog> {
  cached ??= api.getCatalog({ gameType: "xodus" }).then((r) => new Catalog(r.entries));
  cached.catch(() => (cached = undefined));
  return cached;
}

/** "SHIP_KIND_PIRATE_SHIP" (value 4) -> "pirate_ship": the snake-case name
 * catalog ids and seat roles use. */
export function enumSlug(schema: DescEnum, value: number): string {
  const v = schema.values.find((x) => x.number === value);
  return v ? v.localName.toLowerCase() : String(value);
}

/** "corruption_risen" -> "Corruption risen". */
export function humanize(snake: string): string {
  const t = snake.replace(/_/g, " ");
  return t.charAt(0).toUpperCase() + t.slice(1);
}
