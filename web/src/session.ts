// Seats kept in the browser (localStorage), so that a reload resumes the
// seat and its stream: per game, the seat, its secret token, the last seq
// seen and the last lines of the event log.

export interface SeatSession {
  gameId: string;
  seat: number;
  token: string;
  /** The last sequence number seen, as a decimal string (uint64). */
  lastSeq: string;
}

const PREFIX = "xodus.seat.";
const LOG_PREFIX = "xodus.log.";
const LOG_KEEP = 300;

function read<T>(key: string): T | undefined {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : undefined;
  } catch {
    return undefined;
  }
}

export function loadSeat(gameId: string): SeatSession | undefined {
  const s = read<SeatSession>(PREFIX + gameId);
  return s && typeof s.token === "string" && typeof s.seat === "number" ? s : undefined;
}

export function saveSeat(s: SeatSession): void {
  localStorage.setItem(PREFIX + s.gameId, JSON.stringify(s));
}

export function saveLastSeq(gameId: string, seq: bigint): void {
  const s = loadSeat(gameId);
  if (s && BigInt(s.lastSeq || "0") < seq) saveSeat({ ...s, lastSeq: seq.toString() });
}

export function forgetSeat(gameId: string): void {
  localStorage.removeItem(PREFIX + gameId);
  localStorage.removeItem(LOG_PREFIX + gameId);
}

/** Every seat this browser holds. */
export function allSeats(): SeatSession[] {
  const out: SeatSession[] = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key?.startsWith(PREFIX)) {
      const s = loadSeat(key.slice(PREFIX.length));
      if (s) out.push(s);
    }
  }
  return out;
}

export function loadLog(gameId: string): string[] {
  return read<string[]>(LOG_PREFIX + gameId) ?? [];
}

export function saveLog(gameId: string, lines: string[]): void {
  try {
    localStorage.setItem(LOG_PREFIX + gameId, JSON.stringify(lines.slice(-LOG_KEEP)));
  } catch {
    // A full storage only loses old log lines.
  }
}
