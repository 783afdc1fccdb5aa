// Real-browser tests of the web front-end (node:test + playwright-core
// driving Debian's headless Chromium). Needs XODUS_URL (a server started
// with --web-dir dist, and an `xodus-ai --fill` daemon on it) and
// CHROMIUM (the browser binary); web/tests/run.sh sets both up.
// Every move of a human is a click in the page: a decision button or, for
// options aiming at a system, that system on the map. No timed assertion:
// waits are for states of the page; their timeouts only stop a hung run.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { after, before, test } from "node:test";
import { chromium } from "playwright-core";

const URL_ = process.env.XODUS_URL ?? "http://127.0.0.1:50051";
const SHOTS = new URL("./screenshots/", import.meta.url).pathname;
const WAIT = { timeout: 120_000 };
mkdirSync(SHOTS, { recursive: true });

let browser;
before(async () => {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-dev-shm-usage"],
  });
});
after(async () => {
  await browser?.close();
});

/** A page in a fresh context (its own localStorage), laptop-sized, that
 * records console errors and uncaught exceptions. */
async function openPage() {
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  const page = await context.newPage();
  page.errors = [];
  page.on("console", (m) => {
    if (m.type() === "error") page.errors.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (e) => page.errors.push(`pageerror: ${e.message}`));
  await page.goto(URL_);
  await page.locator("#create-game").waitFor(WAIT);
  return page;
}

/** A small seeded random generator, so that a run's clicks are repeatable. */
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Waits until the page shows our decision (returns its seq) or the end
 * screen (returns null). */
async function ready(page) {
  const h = await page.waitForFunction(() => {
    if (document.querySelector("#outcome:not([hidden])")) return "over";
    const d = document.querySelector("#decision");
    if (d && d.dataset.mine === "1" && d.dataset.pending === "0" && d.querySelector("button.option")) return d.dataset.seq;
    return false;
  }, undefined, WAIT);
  const v = await h.jsonValue();
  return v === "over" ? null : v;
}

/** Makes one move by clicking. Returns false once the game is over. */
async function move(page, random, stats) {
  const seq = await ready(page);
  if (seq === null) return false;
  const options = await page.$$eval("#decision button.option", (bs) => bs.map((b) => ({ id: b.dataset.id, hex: b.dataset.hex ?? "" })));
  if (!options.length || (await page.getAttribute("#decision", "data-seq")) !== seq) return true;
  const undo = page.locator("#undo");
  if (!stats.undone && stats.moves > 3 && (await undo.count())) {
    await undo.click();
    stats.undone = true;
  } else {
    const pick = options[Math.floor(random() * options.length)];
    const sameHex = pick.hex ? options.filter((o) => o.hex === pick.hex).length : 0;
    try {
      if (sameHex === 1 && random() < 0.6) {
        await page.locator(`svg.board .target[data-hex="${pick.hex}"]`).click({ timeout: 5000 });
        stats.mapClicks++;
      } else {
        await page.locator(`#decision button.option[data-id="${CSS_escape(pick.id)}"]`).click({ timeout: 5000 });
      }
    } catch {
      return true; // The decision changed under the pointer (another seat moved): look again.
    }
  }
  stats.moves++;
  await page.waitForFunction(
    (prev) => document.querySelector("#outcome:not([hidden])") || document.querySelector("#decision")?.dataset.seq !== prev,
    seq,
    WAIT,
  );
  return true;
}

function CSS_escape(s) {
  return s.replace(/["\\]/g, "\\$&");
}

/** Creates a 3-ship game from the lobby form with the given seat owners
 * and seed (so a run's game is the same each time; the AI captains' timing
 * still varies). */
async function createGame(page, who, seed) {
  await page.selectOption("#ship-count", "3");
  for (let i = 0; i < who.length; i++) await page.selectOption(`#who-${i}`, who[i]);
  await page.fill("#seed", String(seed));
  await page.click("#create-game");
  await page.locator("#decision").waitFor(WAIT);
  return page.evaluate(() => decodeURIComponent(location.hash.replace("#/game/", "")));
}

/** The from_seq field (2) of a gRPC-Web StreamGame request body. */
function fromSeqOf(body) {
  let i = 5; // the gRPC-Web frame header
  let out = 0n;
  while (i < body.length) {
    const tag = body[i++];
    const field = tag >> 3;
    const wire = tag & 7;
    if (wire === 0) {
      let v = 0n, shift = 0n, b;
      do { b = body[i++]; v |= BigInt(b & 0x7f) << shift; shift += 7n; } while (b & 0x80);
      if (field === 2) out = v;
    } else if (wire === 2) {
      let len = 0, shift = 0, b;
      do { b = body[i++]; len |= (b & 0x7f) << shift; shift += 7; } while (b & 0x80);
      i += len;
    } else break;
  }
  return out;
}

test("one human and two AI captains play a 3-ship game to its end by clicking; a reload mid-game resumes the seat", async () => {
  const page = await openPage();
  await page.screenshot({ path: `${SHOTS}lobby.png` });
  // A seed that is not a 64-bit whole number is refused in the form, and nothing is created.
  await page.fill("#seed", "18446744073709551616");
  await page.click("#create-game");
  await page.getByText("The seed is a whole number").waitFor(WAIT);
  assert.ok(!page.url().includes("#/game/"), "still in the lobby");
  const gameId = await createGame(page, ["human", "ai", "ai"], 7);
  // "Who plays next" is open to every captain who has not played: the page
  // says so, and that the AI captains leave it to us for a while.
  // The AI agent claims its seats while the page opens, so the line may
  // first show a seat as "nobody yet": wait until both are claimed.
  const shared = page.locator("#decision p.shared", { hasText: /\(seat 1, AI\).*\(seat 2, AI\)/ });
  await shared.waitFor(WAIT);
  assert.match(await shared.textContent(), /^Shared with .*\(seat 1, AI\).*: they wait a few seconds for you\.$/);
  assert.match(await page.textContent(".table-info"), /You: seat 0/);
  const random = rng(7);
  const stats = { moves: 0, mapClicks: 0, undone: false };

  // A few moves, then a reload.
  while (stats.moves < 8 && (await move(page, random, stats)));
  // Reload while the game waits on us, so that no update arrives meanwhile.
  assert.notEqual(await ready(page), null, "the game is still on");
  const before = await page.evaluate((id) => JSON.parse(localStorage.getItem(`xodus.seat.${id}`)), gameId);
  assert.equal(before.seat, 0);
  assert.ok(BigInt(before.lastSeq) > 0n, "the last seq seen is stored");
  const streams = [];
  page.on("request", (r) => {
    if (r.url().endsWith("/tabletop.v1.GameService/StreamGame")) streams.push(fromSeqOf(r.postDataBuffer() ?? Buffer.alloc(0)));
  });
  const claims = [];
  page.on("request", (r) => r.url().endsWith("/ClaimSeat") && claims.push(r.url()));
  await page.reload();
  await page.locator('#decision[data-seq]:not([data-seq=""])').waitFor(WAIT);
  assert.match(await page.textContent(".table-info"), /You: seat 0/, "same seat after the reload");
  assert.equal(await page.locator(".lobby").count(), 0, "no lobby or claim prompt after the reload");
  assert.deepEqual(claims, [], "the seat is not claimed again");
  assert.ok(streams.length >= 1 && streams[0] >= BigInt(before.lastSeq), `the stream resumes from the last seq seen (${before.lastSeq}), got ${streams}`);
  const afterReload = await page.evaluate((id) => JSON.parse(localStorage.getItem(`xodus.seat.${id}`)), gameId);
  assert.equal(afterReload.token, before.token);

  // Smaller screens: at 1024x700 the whole Corruption track shows without
  // a scroll; at 800x900 the table is one column and the board spans it.
  await page.setViewportSize({ width: 1024, height: 700 });
  const track = await page.locator(".track").evaluate((t) => ({ scroll: t.scrollWidth, client: t.clientWidth }));
  assert.ok(track.scroll <= track.client, `the Corruption track fits at 1024 pixels: ${JSON.stringify(track)}`);
  await page.setViewportSize({ width: 800, height: 900 });
  const board = await page.locator(".board-box").evaluate((b) => b.getBoundingClientRect().width);
  assert.ok(board >= 700, `the board spans an 800-pixel page: ${board} pixels`);
  await page.setViewportSize({ width: 1366, height: 768 });

  // One move with the keyboard: the number key of the first option.
  const seqBefore = await ready(page);
  if (seqBefore !== null) {
    await page.keyboard.press("1");
    await page.waitForFunction((prev) => document.querySelector("#decision")?.dataset.seq !== prev, seqBefore, WAIT);
  }

  // Play on to the end; one screenshot mid-game goes into the README.
  let shot = false;
  while (await move(page, random, stats)) {
    if (!shot && stats.moves >= 25) {
      await page.screenshot({ path: `${SHOTS}table.png` });
      shot = true;
    }
  }
  const outcome = page.locator("#outcome");
  await outcome.waitFor({ state: "visible" });
  assert.match(await outcome.textContent(), /(Victory|Defeat)/);
  await page.screenshot({ path: `${SHOTS}outcome.png` });
  await page.getByRole("button", { name: "Look at the board" }).click();
  await outcome.waitFor({ state: "hidden" });
  if (!shot) await page.screenshot({ path: `${SHOTS}table.png` });
  console.log(`# game ${gameId}: ${stats.moves} clicks (${stats.mapClicks} on the map, undo ${stats.undone ? "used" : "not offered"})`);
  assert.ok(stats.moves >= 8);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("two humans in two browser contexts and one AI captain play the same game to its end by clicking; a spectator watches", async () => {
  const a = await openPage();
  const b = await openPage();
  const gameId = await createGame(a, ["human", "human", "ai"], 8);
  // B joins seat 1 from its lobby.
  const join = b.locator(`button.join[data-game="${gameId}"][data-seat="1"]`);
  await join.waitFor(WAIT);
  await b.screenshot({ path: `${SHOTS}lobby-games.png` });
  // The creator chose seed 8, so the lobby warns that the deck is not secret.
  assert.match(await b.textContent(`.game[data-game="${gameId}"] header`), /chosen seed: the deck is not secret/);
  await join.click();
  await b.locator('#decision[data-seq]:not([data-seq=""])').waitFor(WAIT);
  assert.match(await b.textContent(".table-info"), /You: seat 1/);
  // A's table hears of B's claim and of the AI captain's on its stream
  // (StreamGame with seat_updates), before anyone has chosen anything.
  await a.locator('.mat[data-seat="1"] .who', { hasText: "human" }).waitFor(WAIT);
  await a.locator('.mat[data-seat="2"] .who', { hasText: "AI" }).waitFor(WAIT);
  const sa = { moves: 0, mapClicks: 0, undone: true };
  const sb = { moves: 0, mapClicks: 0, undone: true };
  const ra = rng(11);
  const rb = rng(12);
  const play = async (page, random, stats) => {
    while (await move(page, random, stats));
  };
  const playing = Promise.all([play(a, ra, sa), play(b, rb, sb)]);

  // A third browser watches from the lobby while they play.
  const c = await openPage();
  await c.locator(`.game[data-game="${gameId}"] button.watch`).click(WAIT);
  await c.locator("svg.board .tile").first().waitFor(WAIT);
  assert.match(await c.textContent(".table-info"), /Spectating/);
  assert.equal(await c.locator("#decision button.option").count(), 0, "a spectator has no options");

  await playing;
  await b.screenshot({ path: `${SHOTS}two-humans-outcome.png` });
  console.log(`# game ${gameId}: seat 0 made ${sa.moves} clicks, seat 1 made ${sb.moves}`);
  assert.ok(sa.moves > 0 && sb.moves > 0, "both humans played");
  for (const p of [a, b, c]) {
    await p.locator("#outcome").waitFor({ state: "visible", ...WAIT });
    assert.match(await p.textContent("#outcome"), /(Victory|Defeat)/);
  }
  for (const p of [a, b, c]) assert.deepEqual(p.errors, []);
  for (const p of [a, b, c]) await p.context().close();
});
