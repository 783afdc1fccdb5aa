// Real-browser tests of the talk panel (issue #62), for X-ODUS, VII Legio
// and the generic table (node:test + playwright-core driving Debian's
// headless Chromium; web/tests/run.sh starts the server and an
// `xodus-ai --fill` daemon, whose AI captains say where they head). Two
// pages seated at one table talk to each other: a line typed in one shows
// in the other's panel, a signal points at its hex or sector on the
// other's map, markup shows as text, a refused line says why, a mute
// stops a seat's lines (and is kept across a reload); a spectator reads the table's lines only; an AI
// captain's intent shows as the AI's (a game played on by random clicks
// until one speaks). No timed assertion: waits are for
// states of the page; their timeouts only stop a hung run.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync } from "node:fs";
import { promisify } from "node:util";
import { after, before, test } from "node:test";
import { chromium } from "playwright-core";
import { openPageOf, rng, WAIT } from "./page.mjs";

const URL_ = process.env.XODUS_URL ?? "http://127.0.0.1:50051";
/** A page of this run's browser (see page.mjs). */
const openPage = (viewport, url = URL_) => openPageOf(browser, url, viewport);
const BIN = process.env.XODUS_BIN_DIR ?? new URL("../../target/debug", import.meta.url).pathname;
const SHOTS = new URL("./screenshots/", import.meta.url).pathname;
mkdirSync(SHOTS, { recursive: true });
const run = promisify(execFile);
const PHONE = { width: 390, height: 844 };

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

/** Joins seat `seat` of `gameId` from the page's lobby, and waits for the table. */
async function join(page, gameId, seat) {
  await page.locator(`button.join[data-game="${gameId}"][data-seat="${seat}"]`).click(WAIT);
  await page.locator('#decision[data-seq]:not([data-seq=""])').waitFor(WAIT);
  await page.locator(".talk .talk-input").waitFor(WAIT);
}

/** Says `text` from the page's talk box (Enter sends it). */
async function sayLine(page, text) {
  await page.fill(".talk .talk-input", text);
  await page.press(".talk .talk-input", "Enter");
}

/** Waits for the line whose text is `text` in the page's panel. */
function lineWith(page, text) {
  const line = page.locator(".talk-line", { has: page.locator(".talk-text", { hasText: text }) }).last();
  return line.waitFor(WAIT).then(() => line);
}

/** The page's whole width fits the screen (no sideways scrolling). */
async function noSideways(page, what) {
  const w = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  assert.ok(w.scroll <= w.client, `${what}: the page does not scroll sideways: ${JSON.stringify(w)}`);
}

/** Markup typed into the box shows as the characters typed, in both
 * pages, and none of it becomes an element or runs. */
async function markupStaysText(from, to) {
  for (const text of ["<b>x</b>", "<img src=x onerror=\"window.__pwned=1\">"]) {
    await sayLine(from, text);
    for (const p of [from, to]) {
      const texts = await p.$$eval(".talk-line .talk-text", (els) => els.map((e) => e.textContent));
      await lineWith(p, text);
      assert.ok((await p.$$eval(".talk-line .talk-text", (els) => els.map((e) => e.textContent))).includes(text), `shown literally: ${texts.slice(-3)}`);
    }
  }
  for (const p of [from, to]) {
    assert.equal(await p.locator(".talk-lines b, .talk-lines img").count(), 0, "no element made of what was typed");
    assert.equal(await p.evaluate(() => window.__pwned), undefined, "nothing typed ran");
  }
}

/** Sends lines from `page` until the server refuses one as too fast: the
 * panel says to wait, in words. */
async function tooFast(page) {
  const error = page.locator(".talk .talk-error:not([hidden])");
  for (let i = 0; i < 12 && !(await error.count()); i++) {
    await sayLine(page, `quick ${i}`);
    // Sent (the box empties) or refused (the error shows).
    await page.waitForFunction(() => document.querySelector(".talk .talk-input").value === "" || !document.querySelector(".talk .talk-error").hidden, undefined, WAIT);
  }
  assert.match(await error.textContent(), /^You are talking too fast: wait \d+ s before your next line\.$/);
  assert.match(await error.getAttribute("title"), /^RESOURCE_EXHAUSTED/, "the server's words in the tooltip");
  assert.notEqual(await page.inputValue(".talk .talk-input"), "", "the refused line stays in the box");
}

/** Creates an X-ODUS game from the lobby form (3 ships, seed 7). */
async function createXodus(page, who) {
  await page.selectOption("#ship-count", "3");
  for (let i = 0; i < who.length; i++) await page.selectOption(`#who-${i}`, who[i]);
  await page.fill("#seed", "7");
  await page.click("#create-game");
  await page.locator('#decision[data-seq]:not([data-seq=""])').waitFor(WAIT);
  await page.locator(".talk .talk-input").waitFor(WAIT);
  return page.evaluate(() => decodeURIComponent(location.hash.replace("#/game/", "")));
}

test("X-ODUS: two seated pages talk (a line, markup as text, a private line, a signal that lights its hex), a mute, a line refused as too fast, a spectator reads the table only; the phone layout", async () => {
  const a = await openPage();
  const b = await openPage(PHONE);
  const gameId = await createXodus(a, ["human", "human", "ai"]);
  await join(b, gameId, 1);
  // Who hears it: everyone, the team (a cooperative game), or one captain.
  const audiences = await a.$$eval(".talk-audience option", (os) => os.map((o) => o.textContent));
  assert.equal(audiences[0], "Everyone");
  assert.equal(audiences[1], "The team");
  assert.ok(audiences.some((t) => /^Only Captain 1\b/.test(t)) && audiences.some((t) => /^Only Captain 2\b/.test(t)), `one captain: ${audiences}`);

  // A line from A shows in B's panel under A's captain, and as "You" in A's.
  await sayLine(a, "hello from seat 0");
  const heard = await lineWith(b, "hello from seat 0");
  assert.match(await heard.locator(".talk-who").textContent(), /^Captain 0 \(/);
  assert.equal(await (await lineWith(a, "hello from seat 0")).locator(".talk-who").textContent(), "You");
  assert.equal(await a.inputValue(".talk .talk-input"), "", "the box empties once the line is said");
  await markupStaysText(a, b);

  // The counter, and a line too long is stopped before it is sent.
  await a.fill(".talk .talk-input", "abc");
  assert.equal(await a.textContent(".talk-count"), "3/280");
  await a.evaluate(() => {
    const i = document.querySelector(".talk .talk-input");
    i.value = "y".repeat(281);
    i.dispatchEvent(new Event("input"));
  });
  assert.equal(await a.textContent(".talk-count.over"), "281/280");
  await a.press(".talk .talk-input", "Enter");
  await a.locator(".talk-error", { hasText: "That is too long: a line has at most 280 characters." }).waitFor(WAIT);
  await a.fill(".talk .talk-input", "");

  // A line to one captain: B reads it as said to it.
  await a.selectOption(".talk-audience", { label: (await a.$$eval(".talk-audience option", (os) => os.map((o) => o.textContent))).find((t) => /^Only Captain 1\b/.test(t)) });
  await sayLine(a, "just between us");
  assert.equal(await (await lineWith(b, "just between us")).locator(".talk-to").textContent(), "to you");
  await a.selectOption(".talk-audience", "table");

  // A signal: wait for me at the Starting System, picked on the map
  // (clicked), sent with the text typed. B's map lights that hex.
  await a.locator('svg.board .tile[data-hex="0,0"]').click();
  assert.equal(await a.inputValue(".talk-system"), "0,0");
  await a.fill(".talk .talk-input", "hold there");
  await a.click('.talk-sig[data-signal="2"]');
  const sig = await lineWith(b, "hold there");
  assert.match(await sig.locator(".talk-signal").textContent(), /^⚑ .*wait/i, "the signal in the server's words");
  await b.locator('svg.board .tile[data-hex="0,0"].talk-hl').waitFor(WAIT);
  await b.screenshot({ path: `${SHOTS}talk-phone.png`, fullPage: true });
  await b.locator('svg.board .talk-hl').waitFor({ state: "detached", ...WAIT });
  // Its words are a button that points at the hex again.
  await sig.locator("button.talk-signal").click();
  await b.locator('svg.board .tile[data-hex="0,0"].talk-hl').waitFor(WAIT);

  // B stops hearing A: A's next line never reaches B, B's own does.
  await b.click(".talk-mute-box summary");
  await b.click('.talk-mute[data-seat="0"]');
  await b.locator('.talk-mute[data-seat="0"][aria-pressed="true"]', { hasText: /^Hear Captain 0 \(.*\) again$/ }).waitFor(WAIT);
  await sayLine(a, "B does not hear this");
  await lineWith(a, "B does not hear this");
  await sayLine(b, "I hear myself");
  await lineWith(b, "I hear myself");
  assert.equal(await b.locator(".talk-text", { hasText: "B does not hear this" }).count(), 0);
  // The mute is kept with the game: a reloaded page shows it.
  await b.reload();
  await b.click(".talk-mute-box summary", WAIT);
  await b.locator('.talk-mute[data-seat="0"][aria-pressed="true"]').waitFor(WAIT);
  await b.click('.talk-mute[data-seat="0"]');
  await b.locator('.talk-mute[data-seat="0"][aria-pressed="false"]').waitFor(WAIT);

  // Too many lines at once: refused, in player words.
  await tooFast(b);

  // A spectator reads what is said to everyone, nothing else, and cannot talk.
  const c = await openPage();
  await c.locator(`.game[data-game="${gameId}"] button.watch`).click(WAIT);
  await c.locator(".talk.read-only").waitFor(WAIT);
  await lineWith(c, "hello from seat 0");
  assert.equal(await c.locator(".talk-text", { hasText: "just between us" }).count(), 0, "a private line is not a spectator's");
  assert.equal(await c.locator(".talk .talk-input, .talk .talk-sig, .talk-mute").count(), 0, "no box, signal or mute for a spectator");

  await a.screenshot({ path: `${SHOTS}talk-xodus.png` });

  await noSideways(b, "a seat on a phone");
  await b.locator(".talk").screenshot({ path: `${SHOTS}talk-phone-panel.png` });
  const phone = await b.evaluate(() => {
    const talk = document.querySelector(".talk").getBoundingClientRect();
    const input = document.querySelector(".talk-input").getBoundingClientRect();
    return { right: Math.max(talk.right, input.right), input: input.width, vw: innerWidth };
  });
  assert.ok(phone.right <= phone.vw && phone.input >= 80, `the talk box fits the phone: ${JSON.stringify(phone)}`);
  for (const p of [a, b, c]) assert.deepEqual(p.errors, []);
  for (const p of [a, b, c]) await p.context().close();
});

test("X-ODUS: an AI captain's intent (where it heads and why) shows as the AI's while one human plays with two AI captains", async () => {
  const page = await openPage();
  await createXodus(page, ["human", "ai", "ai"]);
  const random = rng(5);
  const intent = page.locator(".talk-line.ai.intent").first();
  // Play on (random options) until an AI captain says what it plans.
  for (let moves = 0; moves < 300 && !(await intent.count()); moves++) {
    const h = await page.waitForFunction(() => {
      if (document.querySelector(".talk-line.ai.intent")) return "intent";
      if (document.querySelector("#outcome:not([hidden])")) return "over";
      const d = document.querySelector("#decision");
      return d && d.dataset.mine === "1" && d.dataset.pending === "0" && d.dataset.armed === "1" && d.querySelector("button.option") ? d.dataset.seq : false;
    }, undefined, WAIT);
    const seq = await h.jsonValue();
    if (seq === "intent") break;
    assert.notEqual(seq, "over", "an AI captain spoke before the game ended");
    const ids = await page.$$eval("#decision button.option", (bs) => bs.map((b) => b.dataset.id));
    const pick = ids[Math.floor(random() * ids.length)];
    try {
      await page.locator(`#decision button.option[data-id="${pick.replace(/["\\]/g, "\\$&")}"]`).click({ timeout: 5000 });
      await page.waitForFunction((prev) => document.querySelector("#decision")?.dataset.seq !== prev || document.querySelector(".talk-line.ai.intent"), seq, WAIT);
    } catch {
      // The decision changed under the pointer: look again.
    }
  }
  await intent.waitFor(WAIT);
  assert.match(await intent.locator(".talk-who").textContent(), /^Captain [12] \(/);
  assert.equal(await intent.locator(".talk-ai").textContent(), "AI");
  assert.equal(await intent.locator(".talk-plan").textContent(), "plan");
  assert.match(await intent.textContent(), /^Captain [12] \([^)]+\) AI plan: .*\(-?\d+,-?\d+\)/);
  // An intent is styled apart from a remark.
  const style = await intent.evaluate((e) => getComputedStyle(e).fontStyle);
  assert.equal(style, "italic");
  await page.screenshot({ path: `${SHOTS}talk.png` });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("VII Legio: two commanders talk; no team line in a competitive game; land with me, with a sector pointed at on the map, lights that sector on the other's map", async () => {
  const a = await openPage();
  const b = await openPage();
  await a.selectOption("#game-type", "legio");
  await a.selectOption("#legio-players", "2");
  for (let i = 0; i < 2; i++) await a.selectOption(`#legio-who-${i}`, "human");
  await a.fill("#legio-seed", "5");
  await a.click("#create-game");
  await a.locator(".nebula").waitFor(WAIT);
  await a.locator(".talk .talk-input").waitFor(WAIT);
  const gameId = await a.evaluate(() => decodeURIComponent(location.hash.replace("#/game/", "")));
  await join(b, gameId, 1);
  const audiences = await a.$$eval(".talk-audience option", (os) => os.map((o) => o.textContent));
  assert.deepEqual(audiences, ["Everyone", "Only Commander 2"], "no team in a competitive game");

  await sayLine(b, "shall we land together?");
  assert.equal(await (await lineWith(a, "shall we land together?")).locator(".talk-who").textContent(), "Commander 2");
  await markupStaysText(b, a);

  // "Land with me" needs a sector: the one under the pointer on the map.
  assert.ok(await a.locator('.talk-sig[data-signal="4"]').isDisabled(), "no landing without a sector");
  await a.locator('.nebula .sector[data-target="sector:3"] header').hover();
  assert.equal(await a.inputValue(".talk-sector"), "3");
  await a.click('.talk-sig[data-signal="4"]');
  const sig = b.locator(".talk-line .talk-signal").last();
  await sig.waitFor(WAIT);
  assert.equal(await sig.textContent(), "⚑ land with me in Sector 4", "worded as the map names the sector");
  await b.locator('.nebula .sector[data-target="sector:3"].talk-hl').waitFor(WAIT);
  await b.screenshot({ path: `${SHOTS}talk-legio.png` });
  // A signal with no sector points nowhere: words only.
  await a.selectOption(".talk-sector", "");
  await a.click('.talk-sig[data-signal="3"]');
  await b.locator(".talk-line span.talk-signal", { hasText: "no deal" }).waitFor(WAIT);

  await tooFast(a);
  for (const p of [a, b]) assert.deepEqual(p.errors, []);
  for (const p of [a, b]) await p.context().close();
});

test("the generic table talks too: High Card's seat says a line (no signals, no team), a spectator reads it", async () => {
  const { stdout } = await run(`${BIN}/xodus`, ["create", "--game", "high_card", "--players", "2", "--ai-seats", "1", "--id-only", "--server", URL_], { env: { ...process.env, NO_COLOR: "1" } });
  const gameId = stdout.trim();
  const page = await openPage();
  await join(page, gameId, 0);
  assert.equal(await page.locator(".talk .talk-signals").count(), 0, "no signals of its own");
  assert.deepEqual(await page.$$eval(".talk-audience option", (os) => os.map((o) => o.value)), ["table", "seat:1"]);
  await sayLine(page, "good luck, <i>bot</i>");
  await lineWith(page, "good luck, <i>bot</i>");
  const watcher = await openPage(PHONE);
  await watcher.locator(`.game[data-game="${gameId}"] button.watch`).click(WAIT);
  await lineWith(watcher, "good luck, <i>bot</i>");
  assert.equal(await watcher.locator(".talk-lines i").count(), 0);
  await noSideways(watcher, "a spectator on a phone");
  for (const p of [page, watcher]) assert.deepEqual(p.errors, []);
  for (const p of [page, watcher]) await p.context().close();
});
