// Seats kept in the browser (localStorage, through @xodus/client's
// SeatBook), so that a reload resumes the seat and its stream: per game,
// the seat, its secret token, the last seq seen and the last lines of the
// event log.
import { SeatBook, type SavedSeat } from "@xodus/client";

export type SeatSession = SavedSeat;

const seats = new SeatBook(localStorage, "xodus.seat.");
const LOG_PREFIX = "xodus.log.";
const LOG_KEEP = 300;

export const loadSeat = (gameId: string): SeatSession | undefined => seats.load(gameId);
export const saveSeat = (s: SeatSession): void => seats.save(s);
export const saveLastSeq = (gameId: string, seq: bigint): void => seats.saveLastSeq(gameId, seq);
/** Every seat this browser holds. */
export const allSeats = (): SeatSession[] => seats.all();

export function forgetSeat(gameId: string): void {
  seats.forget(gameId);
  localStorage.removeItem(LOG_PREFIX + gameId);
}

export function loadLog(gameId: string): string[] {
  try {
    const raw = localStorage.getItem(LOG_PREFIX + gameId);
    return raw ? (JSON.parse(raw) as string[]) : [];
  } catch {
    return [];
  }
}

export function saveLog(gameId: string, lines: string[]): void {
  try {
    localStorage.setItem(LOG_PREFIX + gameId, JSON.stringify(lines.slice(-LOG_KEEP)));
  } catch {
    // A full storage only loses old log lines.
  }
}
