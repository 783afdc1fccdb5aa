// Turn clocks: the text of a game's clock rules (lobby and table), and the
// table's row of seat clocks, counting down live for the running one from
// its server deadline, marked when timed out or forfeited; the player's own
// clock warns when low (a warning style, and one notice per decision).
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { withNote } from "./decision";
import { h, replace } from "./dom";
import { ClockKind, TimeoutPolicy, type ClockRules, type GameState } from "@xodus/client/gen/tabletop/v1/game_pb";
import { setStatus } from "./status";

/** Below this many milliseconds (or 20% of the seat's full time) a clock is low. */
const LOW_MS = 15_000;

const POLICY: Record<number, string> = {
  [TimeoutPolicy.AI_STAND_IN]: "AI stands in",
  [TimeoutPolicy.SKIP]: "turn skipped",
  [TimeoutPolicy.FORFEIT]: "forfeit",
};

/** "Fischer 5:00 + 10 s (cap 10:00), out of time: AI stands in", or "" for no clock. */
export function clockText(c: ClockRules | undefined): string {
  if (!c || c.kind === ClockKind.UNSPECIFIED) return "";
  let t: string;
  if (c.kind === ClockKind.FISCHER) {
    t = `Fischer ${fmt(c.initialSeconds * 1000)} + ${c.incrementSeconds} s${c.capSeconds ? ` (cap ${fmt(c.capSeconds * 1000)})` : ""}`;
  } else if (c.kind === ClockKind.PER_MOVE) {
    t = `${fmt(c.perMoveSeconds * 1000)} per move`;
  } else {
    t = `${fmt(c.initialSeconds * 1000)} for the game`;
  }
  const p = POLICY[c.onTimeout];
  return p ? `${t}, out of time: ${p}` : t;
}

/** m:ss (h:mm:ss past an hour), rounded up to the second. */
export function fmt(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return hh ? `${hh}:${String(mm).padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
}

/** A seat's full time: what 20% of is "low". */
function fullMs(c: ClockRules): number {
  return (c.kind === ClockKind.PER_MOVE ? c.perMoveSeconds : c.initialSeconds) * 1000;
}

/** The row of seat clocks of a table; ticks while shown. */
export class ClockRow {
  readonly el = h("div", { class: "clocks", "aria-label": "Clocks", hidden: true });
  private timer = 0;
  private state?: GameState;
  private rules?: ClockRules;
  private mySeat?: number;
  private name?: (seat: number) => string;
  /** The seq whose low-time notice was given. */
  private warnedAt?: bigint;

  update(state: GameState | undefined, rules: ClockRules | undefined, mySeat: number | undefined, name?: (seat: number) => string): void {
    this.state = state;
    this.name = name;
    this.rules = rules;
    this.mySeat = mySeat;
    const on = !!state?.clocks.length && !state.outcome;
    this.el.hidden = !state?.clocks.length;
    if (on && !this.timer) this.timer = window.setInterval(() => this.draw(), 250);
    if (!on && this.timer) {
      clearInterval(this.timer);
      this.timer = 0;
    }
    this.draw();
  }

  destroy(): void {
    clearInterval(this.timer);
  }

  private draw(): void {
    const st = this.state;
    if (!st?.clocks.length) return;
    const now = Date.now();
    const items = st.clocks.map((c) => {
      const left = c.running && c.deadline && !st.outcome ? timestampDate(c.deadline).getTime() - now : Number(c.remainingMs);
      const mine = c.seat === this.mySeat;
      const name = this.name?.(c.seat) ?? `Seat ${c.seat}`;
      const full = this.rules ? fullMs(this.rules) : 0;
      const low = !c.forfeited && (left < LOW_MS || (full > 0 && left < full * 0.2));
      if (mine && low && c.running && this.warnedAt !== st.seq) {
        this.warnedAt = st.seq;
        setStatus(`Your clock is low: ${fmt(left)} left.`, "error");
      }
      const cls = ["clock", c.running ? "running" : "", mine ? "mine" : "", mine && low ? "low" : "", c.timedOut ? "timed-out" : "", c.forfeited ? "forfeited" : ""].filter(Boolean).join(" ");
      const mark = c.forfeited ? " forfeited" : c.timedOut ? " out of time" : "";
      return h("span", { class: cls, "data-seat": c.seat, "data-ms": Math.max(0, Math.round(left)) },
        `${c.running ? "▶ " : ""}${mine ? withNote(name, "you") : name}: `, h("span", { class: "time" }, fmt(left)), mark);
    });
    replace(this.el, ...items);
  }
}
