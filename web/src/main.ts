// Entry point: loads the catalog, then routes between the lobby (#/) and a
// table (#/game/ID), resuming the seat this browser holds for that game
// from the last seq it saw.
import { loadCatalog, type Catalog } from "./catalog";
import { errorText, playerText } from "./client";
import { h } from "./dom";
import { LobbyView } from "./lobby";
import { forgetSeat, loadSeat } from "./session";
import { mountStatus, setStatus } from "./status";
import { GameStore } from "./store";
import { TableView } from "./table";

const app = document.getElementById("app") as HTMLElement;
mountStatus(document.getElementById("status") as HTMLElement);

let teardown: (() => void) | undefined;

function go(hash: string): void {
  if (location.hash === hash) void route();
  else location.hash = hash;
}

function openTable(cat: Catalog, gameId: string, asSpectator = false): void {
  const seat = asSpectator ? undefined : loadSeat(gameId);
  const store = new GameStore(gameId, seat ? BigInt(seat.lastSeq || "0") : 0n, seat ? { seat: seat.seat, token: seat.token } : undefined);
  const view = new TableView(store, cat, () => {
    if (store.table.state?.outcome) forgetSeat(gameId);
    go("#/");
  }, async () => {
    // Leave the seat: give it back, forget its token, and watch on.
    if (!(await store.release())) return;
    forgetSeat(gameId);
    teardown?.();
    openTable(cat, gameId, true);
    setStatus("You left your seat; watching as a spectator.", "ok");
  });
  app.replaceChildren(view.el);
  document.title = `X-ODUS — ${gameId}`;
  setStatus(seat ? `Resuming seat ${seat.seat}…` : "Watching…");
  teardown = () => {
    store.stop();
    view.destroy();
  };
  void store.run((why, detail) => {
    if (why === "seat_lost" && seat) {
      forgetSeat(gameId);
      teardown?.();
      openTable(cat, gameId, true);
      setStatus("This browser no longer holds its seat in this game; watching instead.", "error", detail);
    } else if (why === "missing") {
      if (seat) forgetSeat(gameId);
      setStatus("There is no such game on the server.", "error", detail);
    } else if (why === "foreign") {
      setStatus("This page plays X-ODUS only for now.", "info", detail);
    } else {
      setStatus("This game cannot be shown.", "error", detail);
    }
  });
}

async function route(): Promise<void> {
  teardown?.();
  teardown = undefined;
  let cat: Catalog;
  try {
    cat = await loadCatalog();
  } catch (err) {
    // Nothing works without the catalog: say so, and try again shortly
    // (or now, with the button).
    setStatus(playerText(err), "error", errorText(err));
    const hash = location.hash;
    const again = window.setTimeout(() => location.hash === hash && void route(), 3000);
    app.replaceChildren(h("button", { type: "button", onclick: () => { clearTimeout(again); void route(); } }, "Try again"));
    teardown = () => clearTimeout(again);
    return;
  }
  const m = /^#\/game\/([^/?#]+)/.exec(location.hash);
  if (m?.[1]) {
    openTable(cat, decodeURIComponent(m[1]));
  } else {
    const lobby = new LobbyView(cat, (id) => go(`#/game/${encodeURIComponent(id)}`));
    app.replaceChildren(lobby.el);
    document.title = "X-ODUS — lobby";
    teardown = () => lobby.destroy();
  }
}

window.addEventListener("hashchange", () => void route());
void route();
