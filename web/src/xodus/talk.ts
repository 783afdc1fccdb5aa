// X-ODUS at the talk panel: the captains are one team; their signals
// (xodus.v1.XodusSignal) are heading to, wait for me, need help and I take
// (the key, the signal, the fight) at a revealed system, the one picked
// in the list or last pointed at on the map (clicked, else under the
// pointer), and don't seal yet, go ahead, never mind; a signal naming a
// system points at that hex.
import { create } from "@bufbuild/protobuf";
import { anyPack, anyUnpack } from "@bufbuild/protobuf/wkt";
import type { Catalog } from "../catalog";
import { h, replace } from "../dom";
import type { GameTalk, SignalHooks, SignalPad } from "../games";
import type { Table } from "../store";
import type { XodusState } from "@xodus/client/gen/xodus/v1/state_pb";
import { XodusSignalKind as K, XodusSignalSchema, XodusTarget } from "@xodus/client/gen/xodus/v1/talk_pb";
import { key } from "./hex";

/** The kinds that name a system. */
const AT_SYSTEM = new Set([K.HEADING_TO, K.WAIT_FOR_ME, K.I_TAKE, K.NEED_HELP]);

class XodusPad implements SignalPad {
  readonly el: HTMLElement;
  private system = h("select", { class: "talk-system", "aria-label": "The system the signal is about" });
  private systemsKey = "";
  private pointed?: string;

  constructor(private cat: Catalog, private hooks: SignalHooks) {
    const at = (label: string, kind: K, title: string, target = XodusTarget.UNSPECIFIED) =>
      h("button", { type: "button", class: "talk-sig", "data-signal": `${kind}${target ? `:${target}` : ""}`, title, onclick: () => this.sendAt(kind, target) }, label);
    const plain = (label: string, kind: K, title: string) =>
      h("button", { type: "button", class: "talk-sig", "data-signal": `${kind}`, title, onclick: () => this.send(kind) }, label);
    this.el = h("div", { class: "talk-signals", role: "group", "aria-label": "Signals" },
      h("div", { class: "talk-sig-row" },
        h("span", { class: "talk-at" }, "At"), this.system,
        at("Heading to", K.HEADING_TO, "Say your ship is on its way there"),
        at("Wait for me", K.WAIT_FOR_ME, "Ask the ships there to hold until you arrive"),
        at("Need help", K.NEED_HELP, "Ask for help there")),
      h("div", { class: "talk-sig-row" },
        h("span", { class: "talk-at" }, "I take"),
        at("the key", K.I_TAKE, "You take the Precursor Key there: others leave it", XodusTarget.KEY),
        at("the signal", K.I_TAKE, "You take the Precursor Signal there", XodusTarget.SIGNAL),
        at("the fight", K.I_TAKE, "You take the fight there", XodusTarget.FIGHT)),
      h("div", { class: "talk-sig-row" },
        plain("Don't seal yet", K.DONT_SEAL, "Keep the Keys off the Main Rift for now"),
        plain("Go ahead", K.GO_AHEAD, "Lift your calls: seal when ready, stop waiting"),
        plain("Never mind", K.WITHDRAW, "Withdraw your calls")));
  }

  update(t: Table, pointed: string | undefined): void {
    const x = t.detail as XodusState | undefined;
    const tiles = (x?.tiles ?? []).filter((tile) => tile.hex).map((tile) => ({ k: key(tile.hex as { q: number; r: number }), name: this.cat.name("tile", tile.tile) }));
    const k = tiles.map((s) => s.k).join(";");
    if (k !== this.systemsKey) {
      this.systemsKey = k;
      const was = this.system.value;
      replace(this.system, ...tiles.map((s) => h("option", { value: s.k }, `${s.name} (${s.k})`)));
      if (tiles.some((s) => s.k === was)) this.system.value = was;
    }
    // The map leads when the place pointed at changes; the list may be
    // changed by hand in between.
    if (pointed !== this.pointed) {
      this.pointed = pointed;
      if (pointed && tiles.some((s) => s.k === pointed)) this.system.value = pointed;
    }
    for (const b of this.el.querySelectorAll<HTMLButtonElement>(".talk-sig-row:not(:last-child) button")) b.disabled = !this.system.value;
  }

  private sendAt(kind: K, target: XodusTarget): void {
    const [q, r] = this.system.value.split(",").map(Number);
    if (q === undefined || r === undefined || Number.isNaN(q) || Number.isNaN(r)) return;
    this.hooks.send(anyPack(XodusSignalSchema, create(XodusSignalSchema, { kind, system: { q, r }, target })));
  }

  private send(kind: K): void {
    this.hooks.send(anyPack(XodusSignalSchema, create(XodusSignalSchema, { kind })));
  }
}

export const XODUS_TALK: GameTalk = {
  team: true,
  pad: (cat, hooks) => new XodusPad(cat, hooks),
  target(signal) {
    const s = anyUnpack(signal, XodusSignalSchema);
    return s?.system && AT_SYSTEM.has(s.kind) ? key(s.system) : undefined;
  },
};
