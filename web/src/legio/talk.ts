// VII Legio at the talk panel: a competitive game (no team lines); its
// signals (legio.v1.LegioSignal) are invite me, I will invite, no deal and
// land with me, about a sector (S1 to S5: picked in the list or last
// pointed at on the Red Nebula; landing needs one); a signal naming a
// sector points at it, and is worded with the page's sector names ("Sector
// 4" for sector 3, as the map says). A signal never carries a card.
import { create } from "@bufbuild/protobuf";
import { anyPack, anyUnpack } from "@bufbuild/protobuf/wkt";
import { h } from "../dom";
import type { GameTalk, SignalHooks, SignalPad } from "../games";
import { LegioSignalKind as K, LegioSignalSchema } from "@xodus/client/gen/legio/v1/talk_pb";
import { sectorName } from "./words";

/** The sectors a signal may name: S1 to S5 (not Sector X). */
const SECTORS = [0, 1, 2, 3, 4];

class LegioPad implements SignalPad {
  readonly el: HTMLElement;
  private sector = h("select", { class: "talk-sector", "aria-label": "The sector the signal is about" },
    h("option", { value: "" }, "any sector"),
    ...SECTORS.map((s) => h("option", { value: String(s) }, sectorName(s))));
  private land: HTMLButtonElement;
  private pointed?: string;

  constructor(private hooks: SignalHooks) {
    const sig = (label: string, kind: K, title: string) =>
      h("button", { type: "button", class: "talk-sig", "data-signal": `${kind}`, title, onclick: () => this.send(kind) }, label);
    this.land = sig("Land with me", K.PROPOSE_LANDING, "Propose a joint landing in the sector chosen");
    this.sector.addEventListener("change", () => this.sync());
    this.el = h("div", { class: "talk-signals", role: "group", "aria-label": "Signals" },
      h("div", { class: "talk-sig-row" },
        h("span", { class: "talk-at" }, "In"), this.sector,
        sig("Invite me", K.INVITE_ME, "Ask to be invited to a landing"),
        sig("I will invite", K.I_WILL_INVITE, "Promise an invitation to your landing"),
        sig("No deal", K.NO_DEAL, "You will not join, or will not invite"),
        this.land));
    this.sync();
  }

  update(_t: unknown, pointed: string | undefined): void {
    if (pointed !== this.pointed) {
      this.pointed = pointed;
      const s = /^sector:(\d)$/.exec(pointed ?? "")?.[1];
      if (s !== undefined && SECTORS.includes(Number(s))) this.sector.value = s;
      this.sync();
    }
  }

  private sync(): void {
    this.land.disabled = this.sector.value === "";
    this.land.title = this.land.disabled ? "Choose a sector to land in first" : "Propose a joint landing in the sector chosen";
  }

  private send(kind: K): void {
    const v = this.sector.value;
    this.hooks.send(anyPack(LegioSignalSchema, create(LegioSignalSchema, { kind, ...(v !== "" ? { sector: Number(v) } : {}) })));
  }
}

/** A signal in the map's words. */
function words(kind: K, sector: number | undefined): string | undefined {
  const where = sector !== undefined ? ` in ${sectorName(sector)}` : "";
  switch (kind) {
    case K.INVITE_ME: return `invite me to your landing${where}`;
    case K.I_WILL_INVITE: return `I will invite you to my landing${where}`;
    case K.NO_DEAL: return "no deal";
    case K.PROPOSE_LANDING: return `land with me${where}`;
    case K.DECLINED: return "invitation declined";
    default: return undefined;
  }
}

export const LEGIO_TALK: GameTalk = {
  team: false,
  pad: (_cat, hooks) => new LegioPad(hooks),
  target(signal) {
    const s = anyUnpack(signal, LegioSignalSchema);
    return s?.sector !== undefined ? `sector:${s.sector}` : undefined;
  },
  words(signal) {
    const s = anyUnpack(signal, LegioSignalSchema);
    return s ? words(s.kind, s.sector) : undefined;
  },
};
