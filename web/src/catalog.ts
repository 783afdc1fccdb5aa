// A game's content catalog (GetCatalog): names and rules text of its
// tiles, cards, ships..., looked up by category and index (as states and
// options carry them) or by text id (as events do). Public content, the
// same for every viewer.
import type { DescEnum } from "@bufbuild/protobuf";
import { api } from "./client";
import type { CatalogEntry } from "@xodus/client/gen/tabletop/v1/service_pb";

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

const cached = new Map<string, Promise<Catalog>>();

/** A game type's catalog, fetched once. */
export function loadCatalog(gameType: string): Promise<Catalog> {
  let c = cached.get(gameType);
  if (!c) {
    c = api.getCatalog({ gameType }).then((r) => new Catalog(r.entries));
    c.catch(() => cached.delete(gameType));
    cached.set(gameType, c);
  }
  return c;
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
