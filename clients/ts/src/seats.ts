// Seats kept between runs (a browser's localStorage, or any store with the
// same four methods), so that a reload resumes the seat and its stream:
// per game, the seat, its secret token and the last seq seen.

/** A seat kept for a game, with the last seq seen (where a watch resumes). */
export interface SavedSeat {
  gameId: string;
  seat: number;
  token: string;
  /** The last sequence number seen, as a decimal string (uint64). */
  lastSeq: string;
}

/** What `SeatBook` needs of a store: `localStorage` has it. */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
  key(index: number): string | null;
  readonly length: number;
}

/** The seats held, one entry per game under `prefix + gameId`. */
export class SeatBook {
  constructor(private readonly store: KeyValueStore, private readonly prefix = "xodus.seat.") {}

  load(gameId: string): SavedSeat | undefined {
    try {
      const raw = this.store.getItem(this.prefix + gameId);
      const s = raw ? (JSON.parse(raw) as SavedSeat) : undefined;
      return s && typeof s.token === "string" && typeof s.seat === "number" ? s : undefined;
    } catch {
      return undefined;
    }
  }

  save(s: SavedSeat): void {
    this.store.setItem(this.prefix + s.gameId, JSON.stringify(s));
  }

  /** Moves the seat's last seq forward (never back). */
  saveLastSeq(gameId: string, seq: bigint): void {
    const s = this.load(gameId);
    if (s && BigInt(s.lastSeq || "0") < seq) this.save({ ...s, lastSeq: seq.toString() });
  }

  forget(gameId: string): void {
    this.store.removeItem(this.prefix + gameId);
  }

  /** Every seat held. */
  all(): SavedSeat[] {
    const out: SavedSeat[] = [];
    for (let i = 0; i < this.store.length; i++) {
      const key = this.store.key(i);
      if (key?.startsWith(this.prefix)) {
        const s = this.load(key.slice(this.prefix.length));
        if (s) out.push(s);
      }
    }
    return out;
  }
}

/** A store in memory (Node, tests). */
export class MemoryStore implements KeyValueStore {
  private readonly map = new Map<string, string>();
  getItem(key: string): string | null {
    return this.map.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.map.set(key, value);
  }
  removeItem(key: string): void {
    this.map.delete(key);
  }
  key(index: number): string | null {
    return [...this.map.keys()][index] ?? null;
  }
  get length(): number {
    return this.map.size;
  }
}
