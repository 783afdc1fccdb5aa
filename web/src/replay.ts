// The replay panel: a game's state at any seq (GetView with at_seq), with
// step back, step forward and jump to a step. A finished game is replayed
// from any seat's view (as_seat); a live one from our own seat, up to the
// seq it had when the panel opened. The game draws each step
// (GameUi.drawReplay); the panel is the same for every game.
import type { Catalog } from "./catalog";
import { api, errorText, isCanceled, playerText } from "./client";
import { h, replace } from "./dom";
import type { GameUi } from "./games";
import type { SeatCredentials } from "@xodus/client/gen/tabletop/v1/game_pb";
import type { Table } from "./store";

export class ReplayPanel {
  readonly el: HTMLElement;
  private readonly last: bigint;
  private readonly finished: boolean;
  private seq: bigint;
  private asSeat?: number;
  private abort = new AbortController();
  private seqText = h("span", { class: "replay-seq", "aria-live": "polite" });
  private jumpInput = h("input", { type: "number", id: "replay-jump", min: "0", "aria-label": "Step to show", size: "5" });
  private view = h("div", { class: "replay-view" });
  private back = h("button", { type: "button", id: "replay-back", title: "Step back" }, "◀ Back");
  private fwd = h("button", { type: "button", id: "replay-forward", title: "Step forward" }, "Forward ▶");

  constructor(private table: Table, private creds: SeatCredentials | undefined, private ui: GameUi, private cat: Catalog, close: () => void) {
    this.last = table.state?.seq ?? 0n;
    this.finished = !!table.state?.outcome;
    this.seq = this.last;
    this.asSeat = table.seat ?? (this.finished ? 0 : undefined);
    this.jumpInput.max = this.last.toString();
    this.back.addEventListener("click", () => this.show(this.seq - 1n));
    this.fwd.addEventListener("click", () => this.show(this.seq + 1n));
    const jump = h("form", { class: "replay-jump", onsubmit: (ev: Event) => {
      ev.preventDefault();
      const t = this.jumpInput.value.trim();
      if (/^[0-9]+$/.test(t)) this.show(BigInt(t));
    } }, this.jumpInput, h("button", { type: "submit", id: "replay-go" }, "Jump"));
    let seatSel: HTMLSelectElement | null = null;
    if (this.finished && table.summary?.seats.length) {
      seatSel = h("select", { id: "replay-seat", "aria-label": "Whose view" },
        ...table.summary.seats.map((s) => h("option", { value: String(s.seat) }, `${ui.seatName(cat, s.seat, s.role, table)}'s view`)));
      seatSel.value = String(this.asSeat ?? 0);
      seatSel.addEventListener("change", () => {
        this.asSeat = Number(seatSel?.value);
        this.show(this.seq);
      });
    }
    this.el = h("section", { class: "replay", id: "replay", "aria-label": "Replay" },
      h("div", { class: "replay-bar" }, h("h2", undefined, this.finished ? "Replay" : "Replay (your view so far)"),
        this.back, this.seqText, this.fwd, jump, seatSel,
        h("button", { type: "button", id: "replay-close", class: "replay-close", onclick: close }, "Close")),
      this.view);
    this.show(this.seq);
  }

  destroy(): void {
    this.abort.abort();
  }

  private async show(seq: bigint): Promise<void> {
    if (seq < 0n || seq > this.last) return;
    this.seq = seq;
    this.back.disabled = seq <= 0n;
    this.fwd.disabled = seq >= this.last;
    this.seqText.textContent = `step ${seq} of ${this.last}`;
    this.el.dataset.seq = seq.toString();
    this.el.dataset.loaded = "";
    try {
      const r = await api.getView({
        gameId: this.table.gameId,
        credentials: this.finished ? undefined : this.creds,
        atSeq: seq,
        asSeat: this.finished ? this.asSeat : undefined,
      }, { signal: this.abort.signal });
      if (seq !== this.seq) return; // a later step was asked for meanwhile
      const drawn = r.state ? this.ui.drawReplay(r.state, this.cat, this.table.summary, this.asSeat) : null;
      replace(this.view, drawn ?? h("p", { class: "hint" }, "This step cannot be drawn."));
      this.el.dataset.loaded = seq.toString();
    } catch (err) {
      if (isCanceled(err)) return;
      replace(this.view, h("p", { class: "hint", title: errorText(err) }, playerText(err)));
      console.debug(`[xodus] replay: ${errorText(err)}`);
    }
  }
}
