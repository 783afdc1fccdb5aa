// The talk panel, shared by every game: the lines heard as they come (the
// speaker by its game's seat name, an AI's lines marked as its own, its
// intents styled apart, a signal by the server's words, with a button that
// points at the place of the table it names), a text box (280 characters,
// a counter) with who hears it (everyone, the team in a cooperative game,
// one player), the game's signal buttons (games.ts, GameTalk), a mute
// toggle per seat, and refusals in player words. Whatever was said is drawn
// as text (textContent), never as markup. A spectator reads the lines said
// to everyone, with no box, button or toggle.
import type { Any } from "@bufbuild/protobuf/wkt";
import { checkTalk, retryAfterMs, talkLength, TALK_MAX_CHARS, type Audience } from "@xodus/client";
import { TalkAudience, type TalkLine } from "@xodus/client/gen/tabletop/v1/game_pb";
import type { Catalog } from "./catalog";
import { Code, errorCode, errorText, playerText } from "./client";
import { h, replace } from "./dom";
import type { GameUi, SignalPad } from "./games";
import type { GameStore, Table } from "./store";

/** What the panel needs of the shell. */
export interface TalkHooks {
  /** A seat's name, as the game's labels say it. */
  seatName(seat: number): string;
  /** Points at a place of the table for a few seconds. */
  show(target: string): void;
}

/** A refused line in player words (the server's text stays in the tooltip). */
export function talkError(err: unknown): string {
  const wait = retryAfterMs(err);
  if (wait !== undefined) return `You are talking too fast: wait ${Math.max(1, Math.ceil(wait / 1000))} s before your next line.`;
  const detail = errorText(err);
  switch (errorCode(err)) {
    case Code.InvalidArgument: {
      if (/control character/.test(detail)) return "A line is one line of plain text: no line breaks or control characters.";
      if (/characters long/.test(detail)) return `That is too long: a line has at most ${TALK_MAX_CHARS} characters.`;
      if (/nothing to say/.test(detail)) return "Type something to say, or give a signal.";
      const why = /signal refused: (.*)$/.exec(detail)?.[1];
      if (why) return `That signal cannot be given: ${why}.`;
      return "The server refused that line.";
    }
    case Code.FailedPrecondition:
      return "This game has no teams: say it to everyone, or to one player.";
    default:
      return playerText(err);
  }
}

export class TalkPanel {
  readonly el: HTMLElement;
  private list = h("ol", { class: "talk-lines", tabindex: 0, "aria-live": "polite", "aria-label": "What was said" });
  private input = h("input", { type: "text", class: "talk-input", maxlength: TALK_MAX_CHARS, autocomplete: "off", placeholder: "Say something…", "aria-label": "Say something" });
  private counter = h("span", { class: "talk-count", "aria-live": "off" }, `0/${TALK_MAX_CHARS}`);
  private audience = h("select", { class: "talk-audience", "aria-label": "Who hears it" });
  private sendBtn = h("button", { type: "submit", class: "talk-send" }, "Say");
  private error = h("p", { class: "talk-error", role: "alert", hidden: true });
  private mutes = h("div", { class: "talk-mutes" });
  private pad?: SignalPad;
  /** The talk_seq of the last line drawn. */
  private drawn = 0n;
  /** Follow new lines until the user scrolls up, again once back at the end. */
  private stick = true;
  private seatsKey = "";
  private sending = false;
  /** Too fast: no line before this time (performance.now()). */
  private waitUntil = 0;
  private waitTimer = 0;
  /** The place of the table last clicked, and last under the pointer. */
  private pinned?: string;
  private hovered?: string;

  constructor(private store: GameStore, private ui: GameUi, cat: Catalog, private hooks: TalkHooks) {
    const seated = store.table.seat !== undefined;
    this.list.addEventListener("scroll", () => {
      this.stick = this.list.scrollTop + this.list.clientHeight >= this.list.scrollHeight - 4;
    });
    const head = h("div", { class: "talk-head" }, h("h2", undefined, "Talk"));
    if (!seated) {
      this.el = h("section", { class: "talk read-only", "aria-label": "Table talk" }, head, this.list,
        h("p", { class: "hint talk-note" }, "You are watching: you read what is said to everyone."));
    } else {
      this.input.addEventListener("input", () => this.count());
      const form = h("form", { class: "talk-say", onsubmit: (ev: Event) => { ev.preventDefault(); void this.send(); } },
        this.audience, this.input, this.counter, this.sendBtn);
      this.pad = ui.talk?.pad?.(cat, { send: (signal) => void this.send(signal) });
      head.append(h("details", { class: "talk-mute-box" }, h("summary", undefined, "Mute…"), this.mutes));
      this.el = h("section", { class: "talk", "aria-label": "Table talk" }, head, this.list, form, this.pad?.el ?? null, this.error);
    }
    store.subscribeTalk((lines, live) => {
      if (!live) return;
      // A signal said now points at its place on the table.
      for (const l of lines) {
        const target = l.signal ? this.ui.talk?.target?.(l.signal) : undefined;
        if (target) this.hooks.show(target);
      }
    });
  }

  destroy(): void {
    clearTimeout(this.waitTimer);
  }

  /** A place of the table under the pointer (`sticky` false) or clicked:
   * the signals aim there. */
  point(target: string | undefined, sticky: boolean): void {
    if (sticky) {
      if (target) this.pinned = target;
    } else {
      this.hovered = target;
    }
    this.pad?.update(this.store.table, this.pinned ?? this.hovered);
  }

  update(t: Table): void {
    this.drawLines(t);
    if (t.seat === undefined) return;
    this.seats(t);
    this.pad?.update(t, this.pinned ?? this.hovered);
    this.sendBtn.disabled = this.sending || performance.now() < this.waitUntil;
  }

  private drawLines(t: Table): void {
    const fresh = t.talk.filter((l) => l.talkSeq > this.drawn);
    if (!fresh.length) return;
    for (const l of fresh) this.list.append(this.line(l, t));
    this.drawn = fresh.at(-1)?.talkSeq ?? this.drawn;
    while (this.list.childElementCount > 300) this.list.firstElementChild?.remove();
    if (this.stick) this.list.scrollTop = this.list.scrollHeight;
  }

  /** One line: who said it (and to whom), what, and its signal. Every
   * piece of it is a text node. */
  private line(l: TalkLine, t: Table): HTMLElement {
    const cls = ["talk-line"];
    if (l.speakerAi) cls.push("ai");
    if (l.intent) cls.push("intent");
    if (l.speaker === t.seat) cls.push("mine");
    if (l.audience === TalkAudience.TEAM) cls.push("to-team");
    if (l.audience === TalkAudience.SEAT) cls.push("to-seat");
    const to = l.audience === TalkAudience.TEAM ? "to the team"
      : l.audience === TalkAudience.SEAT && l.toSeat !== undefined ? `to ${l.toSeat === t.seat ? "you" : this.hooks.seatName(l.toSeat)}`
        : "";
    const target = l.signal ? this.ui.talk?.target?.(l.signal) : undefined;
    const words = (l.signal ? this.ui.talk?.words?.(l.signal) : undefined) || l.signalWords || (l.signal ? "a signal" : "");
    const signal = !words ? null
      : target
        ? h("button", { type: "button", class: "talk-signal", "data-points": target, title: "Show it on the table", onclick: () => this.hooks.show(target) }, `⚑ ${words}`)
        : h("span", { class: "talk-signal" }, `⚑ ${words}`);
    const said = l.saidAt ? new Date(Number(l.saidAt.seconds) * 1000) : undefined;
    return h("li", { class: cls.join(" "), "data-talk-seq": l.talkSeq.toString(), "data-speaker": l.speaker, title: said ? said.toLocaleTimeString() : undefined },
      h("span", { class: "talk-who" }, l.speaker === t.seat ? "You" : this.hooks.seatName(l.speaker)),
      l.speakerAi ? " " : null,
      l.speakerAi ? h("span", { class: "talk-ai", title: "An AI holds this seat" }, "AI") : null,
      l.intent ? " " : null,
      l.intent ? h("span", { class: "talk-plan", title: "What the AI plans" }, "plan") : null,
      to ? " " : null,
      to ? h("span", { class: "talk-to" }, to) : null,
      ": ",
      l.text ? h("span", { class: "talk-text" }, l.text) : null,
      l.text && signal ? " " : null,
      signal);
  }

  /** The audience list and the mute toggles, redrawn when the seats or
   * their names change (the choice made is kept). */
  private seats(t: Table): void {
    const n = t.summary?.seats.length ?? 0;
    const others = [...Array(n).keys()].filter((s) => s !== t.seat);
    const names = others.map((s) => this.hooks.seatName(s));
    const key = `${names.join("|")}|${t.muted.join(",")}`;
    if (key === this.seatsKey) return;
    this.seatsKey = key;
    const was = this.audience.value || "table";
    replace(this.audience,
      h("option", { value: "table" }, "Everyone"),
      this.ui.talk?.team ? h("option", { value: "team" }, "The team") : null,
      ...others.map((s, i) => h("option", { value: `seat:${s}` }, `Only ${names[i]}`)));
    this.audience.value = [...this.audience.options].some((o) => o.value === was) ? was : "table";
    replace(this.mutes, ...others.map((s, i) => {
      const muted = t.muted.includes(s);
      return h("button", {
        type: "button", class: `talk-mute${muted ? " muted" : ""}`, "data-seat": s, "aria-pressed": muted ? "true" : "false",
        title: muted ? `You do not hear ${names[i]}; click to hear again` : `Stop hearing ${names[i]}`,
        onclick: () => void this.mute(s, !muted),
      }, muted ? `Hear ${names[i]} again` : `Mute ${names[i]}`);
    }));
  }

  private count(): void {
    const n = talkLength(this.input.value);
    this.counter.textContent = `${n}/${TALK_MAX_CHARS}`;
    this.counter.classList.toggle("over", n > TALK_MAX_CHARS);
  }

  private to(): Audience {
    const v = this.audience.value;
    if (v === "team") return "team";
    const m = /^seat:(\d+)$/.exec(v);
    return m ? { seat: Number(m[1]) } : "table";
  }

  private say(text: string, detail?: string): void {
    this.error.textContent = text;
    this.error.hidden = false;
    if (detail) this.error.title = detail;
    else this.error.removeAttribute("title");
  }

  private clear(): void {
    this.error.hidden = true;
    this.error.textContent = "";
  }

  /** Sends the text box's line, with a signal when one was given. */
  private async send(signal?: Any): Promise<void> {
    if (this.sending) return;
    const text = this.input.value.trim();
    const wrong = checkTalk(text);
    if (wrong === "too_long") return this.say(`That is too long: a line has at most ${TALK_MAX_CHARS} characters.`);
    if (wrong === "control") return this.say("A line is one line of plain text: no line breaks or control characters.");
    if (!text && !signal) return this.say("Type something to say, or give a signal.");
    const left = this.waitUntil - performance.now();
    if (left > 0) return this.say(`You are talking too fast: wait ${Math.ceil(left / 1000)} s before your next line.`);
    this.sending = true;
    this.sendBtn.disabled = true;
    try {
      await this.store.say(text, this.to(), signal);
      this.input.value = "";
      this.count();
      this.clear();
    } catch (err) {
      this.say(talkError(err), errorText(err));
      const wait = retryAfterMs(err);
      if (wait !== undefined) {
        this.waitUntil = performance.now() + wait;
        clearTimeout(this.waitTimer);
        this.waitTimer = window.setTimeout(() => {
          this.sendBtn.disabled = this.sending;
        }, wait + 10);
      }
    } finally {
      this.sending = false;
      this.sendBtn.disabled = performance.now() < this.waitUntil;
    }
  }

  private async mute(seat: number, muted: boolean): Promise<void> {
    try {
      await this.store.mute(seat, muted);
      this.clear();
    } catch (err) {
      this.say(playerText(err), errorText(err));
    }
  }
}
