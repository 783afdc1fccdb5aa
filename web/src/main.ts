// Entry point: loads the catalogs of the games this page plays, then
// routes between the lobby (#/, or #/new/TYPE with that game's setup form
// chosen) and a table (#/game/ID), resuming the seat this browser holds
// for that game from the last seq it saw.
import { loadCatalog, type Catalog } from "./catalog";
import { errorText, playerText } from "./client";
import { h } from "./dom";
import { LobbyView } from "./lobby";
import { GAMES, tableUi } from "./registry";
import { forgetSeat, loadSeat } from "./session";
import { TableShell } from "./shell";
import { mountStatus, setStatus } from "./status";
import { GameStore } from "./store";
import { setTitle } from "./title";

const app = document.getElementById("app") as HTMLElement;
mountStatus(document.getElementById("status") as HTMLElement);

let teardown: (() => void) | undefined;

function go(hash: string): void {
  if (location.hash === hash) void route();
  else location.hash = hash;
}


function openTable(gameId: string, asSpectator = false): void {
  const seat = asSpectator ? undefined : loadSeat(gameId);
  const store = new GameStore(gameId, seat ? BigInt(seat.lastSeq || "0") : 0n, seat ? { seat: seat.seat, token: seat.token } : undefined, tableUi);
  const view = new TableShell(store, () => {
    if (store.table.state?.outcome) forgetSeat(gameId);
    go("#/");
  }, async () => {
    // Leave the seat: give it back, forget its token, and watch on.
    if (!(await store.release())) return;
    forgetSeat(gameId);
    teardown?.();
    openTable(gameId, true);
    setStatus("You left your seat; watching as a spectator.", "ok");
  });
  app.replaceChildren(view.el);
  // The game's name comes with its first state (TableShell.mount).
  setTitle(`Game ${gameId}`, "…");
  setStatus(seat ? "Resuming your seat…" : "Watching…");
  teardown = () => {
    store.stop();
    view.destroy();
  };
  void store.run((why, detail) => {
    if (why === "seat_lost" && seat) {
      forgetSeat(gameId);
      teardown?.();
      openTable(gameId, true);
      setStatus("This browser no longer holds its seat in this game; watching instead.", "error", detail);
    } else if (why === "missing") {
      if (seat) forgetSeat(gameId);
      setStatus("There is no such game on the server.", "error", detail);
    } else {
      setStatus("This game cannot be shown.", "error", detail);
    }
  });
}

async function route(): Promise<void> {
  teardown?.();
  teardown = undefined;
  const m = /^#\/game\/([^/?#]+)/.exec(location.hash);
  if (m?.[1]) {
    // The table loads its game's catalog once the first state names it.
    openTable(decodeURIComponent(m[1]));
    return;
  }
  let cats: Map<string, Catalog>;
  try {
    cats = new Map(await Promise.all(GAMES.map(async (g) => [g.type, await loadCatalog(g.type)] as const)));
  } catch (err) {
    // The lobby's forms need the catalogs: say so, and try again shortly
    // (or now, with the button).
    setStatus(playerText(err), "error", errorText(err));
    const hash = location.hash;
    const again = window.setTimeout(() => location.hash === hash && void route(), 3000);
    app.replaceChildren(h("button", { type: "button", onclick: () => { clearTimeout(again); void route(); } }, "Try again"));
    teardown = () => clearTimeout(again);
    return;
  }
  const newType = /^#\/new\/([a-z0-9_-]+)/.exec(location.hash)?.[1];
  const lobby = new LobbyView(cats, (id) => go(`#/game/${encodeURIComponent(id)}`), newType);
  app.replaceChildren(lobby.el);
  setTitle("Lobby — X-ODUS and VII Legio", "X-ODUS · VII Legio");
  teardown = () => lobby.destroy();
}

window.addEventListener("hashchange", () => void route());
void route();
