// Real-browser tests of the web front-end with X-ODUS (node:test + playwright-core
// driving Debian's headless Chromium). Needs XODUS_URL (a server started
// with --web-dir dist, and an `xodus-ai --fill` daemon on it) and
// CHROMIUM (the browser binary); web/tests/run.sh sets both up.
// Every move of a human is a click in the page: a decision button or, for
// options aiming at a system, that system on the map. No timed assertion:
// waits are for states of the page; their timeouts only stop a hung run.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { chromium } from "playwright-core";
import { assertDecisionLayout, assertSelectionShows } from "./layout.mjs";
import { openPageOf, ready, rng, WAIT } from "./page.mjs";

const URL_ = process.env.XODUS_URL ?? "http://127.0.0.1:50051";
/** A page of this run's browser (see page.mjs). */
const openPage = (viewport, url = URL_) => openPageOf(browser, url, viewport);
const SHOTS = new URL("./screenshots/", import.meta.url).pathname;
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
  // A browser plays with SubmitChoice and StreamGame: gRPC-Web cannot
  // carry the bidirectional Play stream, and the page never asks for it.
  const plays = [];
  page.on("request", (r) => r.url().endsWith("/tabletop.v1.GameService/Play") && plays.push(r.url()));
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
  const shared = page.locator("#decision p.shared", { hasText: /Captain 1 \([^)]*, AI\).*Captain 2 \([^)]*, AI\)/ });
  await shared.waitFor(WAIT);
  assert.match(await shared.textContent(), /^Shared with Captain 1 \([^)]*, AI\), Captain 2 \([^)]*, AI\): they wait a few seconds for you\.$/);
  // The seat is named as the engine's labels name it: "Captain 0 (ship)".
  assert.match(await page.textContent(".table-info"), /You: Captain 0 \([^)]+\)/);
  assert.doesNotMatch(await page.textContent(".table-info"), /seat \d/i, "no bare seat number in the header");
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
  assert.match(await page.textContent(".table-info"), /You: Captain 0 \(/, "same seat after the reload");
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
  assert.match(await page.textContent(".table-info .where"), /^Game over: the captains (won|lost) \(/, "the header says the game is over");
  await page.screenshot({ path: `${SHOTS}outcome.png` });
  await page.getByRole("button", { name: "Look at the board" }).click();
  await outcome.waitFor({ state: "hidden" });
  if (!shot) await page.screenshot({ path: `${SHOTS}table.png` });

  // The replay of the finished game: it opens at the last step, steps
  // back and forward, jumps, and draws another board at another step;
  // another seat's view can be chosen.
  const last = await page.evaluate(() => document.body.dataset.seq);
  await page.click("#replay-open");
  const replay = page.locator("#replay");
  await page.locator(`#replay[data-loaded="${last}"]`).waitFor(WAIT);
  assert.equal(await page.textContent("#replay .replay-seq"), `step ${last} of ${last}`);
  assert.ok(await page.locator("#replay-forward").isDisabled(), "no step after the last");
  const boardAt = () => replay.locator("svg.board").evaluate((b) => b.outerHTML);
  const atLast = await boardAt();
  await page.click("#replay-back");
  const prev = String(BigInt(last) - 1n);
  await page.locator(`#replay[data-loaded="${prev}"]`).waitFor(WAIT);
  assert.equal(await page.textContent("#replay .replay-seq"), `step ${prev} of ${last}`);
  await page.click("#replay-forward");
  await page.locator(`#replay[data-loaded="${last}"]`).waitFor(WAIT);
  assert.equal(await boardAt(), atLast, "forward again: the same board as before");
  await page.fill("#replay-jump", "1");
  await page.click("#replay-go");
  await page.locator('#replay[data-loaded="1"]').waitFor(WAIT);
  assert.equal(await page.textContent("#replay .replay-seq"), `step 1 of ${last}`);
  assert.notEqual(await boardAt(), atLast, "step 1's board is not the last one");
  assert.ok((await replay.locator("svg.board .tile").count()) < (await page.locator(".board-box svg.board .tile").count()), "fewer systems revealed at step 1 than at the end");
  await page.selectOption("#replay-seat", "2");
  await page.locator('#replay[data-loaded="1"]').waitFor(WAIT);
  await page.screenshot({ path: `${SHOTS}replay.png` });
  await page.click("#replay-close");
  await replay.waitFor({ state: "detached", ...WAIT });
  console.log(`# game ${gameId}: ${stats.moves} clicks (${stats.mapClicks} on the map, undo ${stats.undone ? "used" : "not offered"})`);
  assert.ok(stats.moves >= 8);
  assert.deepEqual(plays, [], "no Play stream from the browser");
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
  assert.match(await b.textContent(".table-info"), /You: Captain 1 \(/);
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
  // X-ODUS shows every viewer the same state: its spectators watch live
  // (the VII Legio test checks a delayed spectator).
  assert.equal(await c.textContent(".table-info .live"), "● live");
  assert.equal(await c.locator(".table-info .live.delayed").count(), 0);
  for (const p of [a, b]) assert.equal(await p.textContent(".table-info .live"), "● live", "a seated player sees the game live");

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

// ---------------------------------------------------------------------------
// The page's own mistakes (issue #48, part 4). These games have human seats
// only, so nobody but the test moves: with seed 7 and seat 0 playing, the
// first decisions are "start:0", then an Action with 16 options whose
// first is "probe:1,0", then the orientation of the tile it reveals.

/** Creates a 3-ship game whose seats are all for humans (this page takes
 * seat 0 and nobody the others), seed 7. */
async function soloGame(page) {
  return createGame(page, ["human", "human", "human"], 7);
}

/** The decision on screen, once its options are open. */
async function openDecision(page, seq) {
  await page.locator(`#decision[data-seq="${seq}"][data-armed="1"]`).waitFor(WAIT);
  return page.evaluate(() => {
    const d = document.querySelector("#decision");
    return { seq: d.dataset.seq, kind: d.dataset.kind, ids: [...d.querySelectorAll("button.option")].map((b) => b.dataset.id) };
  });
}

/** Counts the SubmitChoice requests the page sends. */
function countChoices(page) {
  const sent = [];
  page.on("request", (r) => r.url().endsWith("/tabletop.v1.GameService/SubmitChoice") && sent.push(r.url()));
  return sent;
}

/** The middle of the first option button. */
async function firstOptionPoint(page) {
  const box = await page.locator("#decision button.option").first().boundingBox();
  return [box.x + box.width / 2, box.y + box.height / 2];
}

test("a double click spends one choice; a long option list scrolls to its last option; an orientation draws the tile's lanes", async () => {
  const page = await openPage();
  await soloGame(page);
  const sent = countChoices(page);
  assert.deepEqual((await openDecision(page, "0")).ids, ["start:0"]);

  // 1. Two real clicks 100 ms apart on "start:0": the second lands on the
  //    next decision's options (or on the pending ones), and spends nothing.
  let [x, y] = await firstOptionPoint(page);
  await page.mouse.click(x, y);
  await page.waitForTimeout(100); // the pace of a quick double click, not an assertion
  await page.mouse.click(x, y);
  let d = await openDecision(page, "1");
  assert.equal(sent.length, 1, "one SubmitChoice for two clicks");
  assert.equal(d.kind, "action");
  assert.equal(d.ids.length, 16);
  assert.equal(d.ids[0], "probe:1,0");
  assert.equal(d.ids.at(-1), "end_turn");

  // 2. At 1366x768 the 16 options do not all fit: the list scrolls inside
  //    the panel, says how many are below, and "End the turn" comes into
  //    view, unclipped, once scrolled.
  const more = page.locator("#decision p.more");
  assert.ok(await more.isVisible(), "the panel says options are below");
  assert.match(await more.textContent(), /^▾ \d+ more options? below/);
  const list = page.locator("#decision ol.options");
  await list.hover();
  await page.mouse.wheel(0, 2000);
  await page.waitForFunction(() => {
    const l = document.querySelector("#decision ol.options");
    return l && l.scrollTop + l.clientHeight >= l.scrollHeight - 1;
  }, undefined, WAIT);
  const fit = await page.evaluate(() => {
    const l = document.querySelector("#decision ol.options").getBoundingClientRect();
    const b = [...document.querySelectorAll("#decision button.option")].at(-1).getBoundingClientRect();
    return { top: b.top, bottom: b.bottom, listTop: l.top, listBottom: l.bottom, vh: innerHeight };
  });
  assert.ok(fit.top >= fit.listTop - 1 && fit.bottom <= fit.listBottom + 1 && fit.bottom <= fit.vh, `the last option shows whole: ${JSON.stringify(fit)}`);
  await more.waitFor({ state: "hidden", ...WAIT });
  await page.locator('#decision button.option[data-id="end_turn"]').waitFor({ state: "visible" });
  await list.evaluate((l) => (l.scrollTop = 0));

  // The map names the places the labels name: (q,r) on every system.
  assert.ok((await page.locator("svg.board .coord", { hasText: "(0,0)" }).count()) >= 1, "the start system shows (0,0)");
  assert.ok((await page.locator("svg.board .target .coord", { hasText: "(1,0)" }).count()) === 1, "the probe target shows (1,0)");

  // 3. Two real clicks 180 ms apart on "probe:1,0": one choice (the
  //    orientation that follows is not picked by the second click).
  [x, y] = await firstOptionPoint(page);
  await page.mouse.click(x, y);
  await page.waitForTimeout(180); // the pace of a slower double click, not an assertion
  await page.mouse.click(x, y);
  d = await openDecision(page, "2");
  assert.equal(sent.length, 2, "one SubmitChoice for two clicks");
  assert.equal(d.kind, "orientation");

  // 4. The orientation: every option draws the tile with its lanes among
  //    its neighbours, and the map shows the lanes of the one under the
  //    pointer at the place being revealed.
  const previews = await page.$$eval("#decision button.option", (bs) => bs.map((b) => ({
    svg: b.querySelectorAll("svg.orient-preview").length,
    lanes: b.querySelectorAll("svg.orient-preview .pv-lane.own").length,
    label: b.textContent,
  })));
  assert.ok(previews.length >= 2);
  for (const p of previews) {
    assert.equal(p.svg, 1, `one drawn tile in "${p.label}"`);
    const named = (p.label.match(/\b(E|NE|NW|W|SW|SE)\b/g) ?? []).length;
    assert.equal(p.lanes, named, `as many lanes drawn as named in "${p.label}"`);
  }
  assert.equal(await page.locator("svg.board .placing .orient-lanes").count(), previews.length);
  await page.locator("#decision button.option").nth(1).hover();
  await page.locator('svg.board .placing .orient-lanes.show[data-index="1"]').waitFor(WAIT);
  await page.screenshot({ path: `${SHOTS}orientation.png` });

  // 5. A double click (dblclick event and all) on the first orientation:
  //    one choice; the Action that follows is untouched.
  await page.mouse.dblclick(...(await firstOptionPoint(page)));
  d = await openDecision(page, "3");
  assert.equal(sent.length, 3, "one SubmitChoice for a double click");
  assert.equal(d.kind, "action");
  assert.equal(await page.evaluate(() => document.body.dataset.seq), "3");

  // 6. Two clicks 150 ms apart on a system of the map (the jump back to
  //    (1,0), its only option there): one choice.
  assert.ok(d.ids.includes("jump:1,0"));
  const target = await page.locator('svg.board .target[data-hex="1,0"]').boundingBox();
  [x, y] = [target.x + target.width / 2, target.y + target.height / 2];
  await page.mouse.click(x, y);
  await page.waitForTimeout(150); // the pace of a double click, not an assertion
  await page.mouse.click(x, y);
  d = await openDecision(page, "4");
  assert.equal(sent.length, 4, "one SubmitChoice for two clicks on the map");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

/** The SubmitChoice request bodies the page sends, as text (the option
 * id is a plain string in the protobuf body). */
function recordChoices(page) {
  const sent = [];
  page.on("request", (r) => r.url().endsWith("/tabletop.v1.GameService/SubmitChoice") && sent.push((r.postDataBuffer() ?? Buffer.alloc(0)).toString("latin1")));
  return sent;
}

test("a 16-option decision at 1280x800 and 390x844: every option inside its panel, none overlapping, the list scrolling, the keyboard's selection in view; keys 1-9 then letters; how to win; the game's name", async () => {
  const page = await openPage({ width: 1280, height: 800 });
  assert.match(await page.title(), /^Lobby — X-ODUS and VII Legio$/);
  await soloGame(page);
  const sent = recordChoices(page);
  await openDecision(page, "0");
  // The title and the top bar name the game on the table.
  assert.match(await page.title(), /^X-ODUS — g-/);
  assert.equal(await page.textContent(".top h1"), "X-ODUS");
  assert.match(await page.textContent(".table-info .where"), /^Round 1 · /);
  await page.click('#decision button.option[data-id="start:0"]');
  const d = await openDecision(page, "1");
  assert.equal(d.ids.length, 16);
  // The keys: 1-9, then letters (as the terminal: no j, k, q, u, x, y).
  const keys = await page.$$eval("#decision button.option kbd", (ks) => ks.map((k) => k.textContent).join(""));
  assert.equal(keys, "123456789abcdefg");
  for (const vp of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(vp);
    await page.evaluate(() => document.querySelector("#app").scrollTo(0, 0));
    const what = `X-ODUS at ${vp.width}x${vp.height}`;
    const m = await assertDecisionLayout(page, what);
    assert.ok(m.scrolls, `${what}: 16 options make the list scroll (${m.listHeight} px high)`);
    assert.ok(m.panelBottom <= m.vh, `${what}: the whole panel is in the first screen: ${m.panelBottom} > ${m.vh}`);
    await assertSelectionShows(page, what);
    await page.screenshot({ path: `${SHOTS}long-decision-${vp.width}.png` });
  }

  // How to win: the header's button and the ? key open and close it.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.click("#rules-open");
  const rules = page.locator("#rules");
  await rules.waitFor({ state: "visible" });
  assert.match(await rules.textContent(), /Cooperative.*sealing the Main Rift.*Precursor Key.*Corruption/s);
  await page.keyboard.press("?");
  await rules.waitFor({ state: "hidden" });
  await page.keyboard.press("?");
  await rules.waitFor({ state: "visible" });
  await page.keyboard.press("Escape");
  await rules.waitFor({ state: "hidden" });
  assert.equal(sent.length, 1, "reading the rules sends nothing");

  // The letter of the 16th option picks it: "End the turn".
  await openDecision(page, "1");
  await page.keyboard.press("g");
  await page.waitForFunction(() => document.querySelector("#decision")?.dataset.seq !== "1", undefined, WAIT);
  assert.equal(sent.length, 2);
  assert.ok(sent[1].includes("end_turn"), "the g key sent the 16th option, end_turn");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("an unknown game id says so, stops loading and links back to the lobby", async () => {
  const page = await openPage();
  await page.goto(`${URL_}/#/game/g-0000000000000000`);
  const notice = page.locator(".notice.missing");
  await notice.waitFor(WAIT);
  assert.match(await notice.textContent(), /No such game.*g-0000000000000000/);
  assert.equal(await page.getByText("Loading the table").count(), 0, "no endless loading");
  assert.match(await page.textContent("#status"), /no such game/i);
  assert.match(await page.getAttribute("#status", "title"), /^NOT_FOUND/, "the technical detail stays in the tooltip");
  await page.click("a.to-lobby");
  await page.locator("#create-game").waitFor(WAIT);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("the decision panel follows who sits where: seat 1 goes from nobody to human when another browser joins", async () => {
  const a = await openPage();
  const b = await openPage();
  const gameId = await soloGame(a);
  const shared = a.locator("#decision p.shared");
  await a.locator("#decision p.shared", { hasText: /Captain 1 \([^)]*, nobody yet\)/ }).waitFor(WAIT);
  const join = b.locator(`button.join[data-game="${gameId}"][data-seat="1"]`);
  await join.click(WAIT);
  await b.locator('#decision[data-seq]:not([data-seq=""])').waitFor(WAIT);
  await a.locator("#decision p.shared", { hasText: /Captain 1 \([^)]*, human\)/ }).waitFor(WAIT);
  assert.match(await shared.textContent(), /Captain 1 \([^)]*, human\).*Captain 2 \([^)]*, nobody yet\)/);
  assert.equal(await a.getAttribute("#decision", "data-seq"), "0", "no choice was made: the seats alone changed");
  for (const p of [a, b]) assert.deepEqual(p.errors, []);
  for (const p of [a, b]) await p.context().close();
});

test("errors in player words: a stale choice shows the new state; a failed fetch goes offline, options off, until the server answers again", async () => {
  const page = await openPage();
  await soloGame(page);
  await openDecision(page, "0");
  await page.click('#decision button.option[data-id="start:0"]');
  await openDecision(page, "1");

  // Stale: the same seat's choice reaches the server first (sent here from
  // outside the page, as another tab of the same player would), so the
  // page's own request carries an old expected_seq and is refused.
  await page.route("**/tabletop.v1.GameService/SubmitChoice", async (route) => {
    const req = route.request();
    const first = await fetch(req.url(), { method: "POST", headers: req.headers(), body: req.postDataBuffer() });
    await first.arrayBuffer();
    await route.continue();
  });
  await page.click('#decision button.option[data-id="probe:1,0"]');
  await page.locator("#status", { hasText: "The game moved on; here is the new state." }).waitFor(WAIT);
  assert.match(await page.getAttribute("#status", "title"), /^ABORTED/, "the technical detail stays in the tooltip");
  const d = await openDecision(page, "2");
  assert.equal(d.kind, "orientation", "the new state is on screen, its options open");
  const text = await page.textContent("body");
  assert.doesNotMatch(text, /ABORTED|expected_seq|UNKNOWN|Failed to fetch/);
  await page.unroute("**/tabletop.v1.GameService/SubmitChoice");

  // Offline: every call fails as if the server were down (the browser
  // logs each blocked request as "Failed to load resource": those lines
  // are the browser's, not the page's, and are set aside below).
  let blocked = 0;
  await page.route("**/tabletop.v1.GameService/**", (route) => {
    blocked++;
    return route.abort("failed");
  });
  await page.click("#decision button.option >> nth=0");
  await page.locator("#status", { hasText: "Cannot reach the server; retrying…" }).waitFor(WAIT);
  await page.locator(".table-info .live.off").waitFor(WAIT);
  await page.locator('#decision[data-armed="0"] p.offline').waitFor(WAIT);
  const off = await page.$$eval("#decision button.option", (bs) => bs.map((b) => b.disabled));
  assert.ok(off.length > 0 && off.every(Boolean), "every option is off while offline");
  assert.doesNotMatch(await page.textContent("body"), /UNKNOWN|Failed to fetch/);
  assert.match(await page.getAttribute("#status", "title"), /Failed to fetch/i, "the technical detail stays in the tooltip");
  // Keys do nothing either.
  await page.keyboard.press("1");
  assert.equal(await page.getAttribute("#decision", "data-seq"), "2");
  // The server answers again: the stream comes back by itself, from the
  // last seq seen, the options open, and the choice that failed can be made.
  const reopened = [];
  page.on("request", (r) => {
    if (r.url().endsWith("/tabletop.v1.GameService/StreamGame")) reopened.push(fromSeqOf(r.postDataBuffer() ?? Buffer.alloc(0)));
  });
  await page.unroute("**/tabletop.v1.GameService/**");
  await page.locator("#status", { hasText: "Back online." }).waitFor(WAIT);
  assert.ok(reopened.length >= 1 && reopened.every((s) => s === 2n), `the stream reopens from seq 2, the last seen: ${reopened}`);
  await page.locator(".table-info .live.on").waitFor(WAIT);
  assert.equal((await openDecision(page, "2")).kind, "orientation", "the failed choice changed nothing");
  await page.click("#decision button.option >> nth=0");
  await openDecision(page, "3");
  assert.ok(blocked >= 2, `the page kept trying (${blocked} blocked calls)`);
  const errors = page.errors.filter((e) => !/^console: Failed to load resource: net::ERR_FAILED$/.test(e));
  assert.deepEqual(errors, []);
  await page.context().close();
});

test("on a 390x844 phone the decision comes before the board, its labels wrap and nothing scrolls sideways", async () => {
  const page = await openPage({ width: 390, height: 844 });
  const sideways = () => page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  let w = await sideways();
  assert.ok(w.scroll <= w.client, `the lobby does not scroll sideways: ${JSON.stringify(w)}`);
  await soloGame(page);
  await openDecision(page, "0");
  await page.click('#decision button.option[data-id="start:0"]');
  await openDecision(page, "1");
  await page.locator("svg.board .tile").first().waitFor(WAIT);
  const where = await page.evaluate(() => ({
    decision: document.querySelector("#decision").getBoundingClientRect().top,
    board: document.querySelector(".board-box").getBoundingClientRect().top,
    vh: innerHeight,
  }));
  assert.ok(where.decision < where.vh, `the decision starts in the first screen: ${JSON.stringify(where)}`);
  assert.ok(where.decision < where.board, "the decision comes before the board");
  w = await sideways();
  assert.ok(w.scroll <= w.client, `the table does not scroll sideways: ${JSON.stringify(w)}`);
  const cut = await page.$$eval("#decision button.option", (bs) => bs.filter((b) => b.scrollWidth > b.clientWidth + 1 || b.getBoundingClientRect().right > innerWidth).map((b) => b.textContent));
  assert.deepEqual(cut, [], "no option label is cut off");
  await page.screenshot({ path: `${SHOTS}phone.png` });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// ---------------------------------------------------------------------------
// Clocks and leaving a seat (issue #48).

test("a per-move clock from the form counts down, warns when low, shows in the lobby; leaving the seat opens it again", async () => {
  const page = await openPage();
  await page.selectOption("#clock-kind", "per_move");
  await page.fill("#clock-per-move", "25");
  await page.selectOption("#clock-timeout", "ai");
  const gameId = await createGame(page, ["human", "ai", "ai"], 9);
  assert.match(await page.textContent(".table-info .clock-rules"), /0:25 per move, out of time: AI stands in/);
  // "Who plays next" is shared; once seat 0 starts, the Action waits on
  // seat 0 alone and its clock runs.
  const d = await openDecision(page, await ready(page));
  await page.click(`#decision button.option[data-id="${d.ids.find((id) => id === "start:0") ?? d.ids[0]}"]`);
  const mine = page.locator('.clocks .clock.mine.running[data-seat="0"]');
  await mine.waitFor(WAIT);
  assert.equal(await page.locator(".clocks .clock").count(), 3, "a clock for every seat");
  const ms1 = Number(await mine.getAttribute("data-ms"));
  await page.waitForFunction((m) => Number(document.querySelector('.clocks .clock.mine[data-seat="0"]')?.dataset.ms) < m - 1000, ms1, WAIT);
  assert.ok(ms1 <= 25_000, `it starts from at most 25 s: ${ms1}`);
  // Under 15 s: the warning style and the one-time notice.
  await page.locator('.clocks .clock.mine.low[data-seat="0"]').waitFor(WAIT);
  await page.locator("#status", { hasText: /^Your clock is low: 0:1\d left\.$/ }).waitFor(WAIT);
  assert.ok(Number(await mine.getAttribute("data-ms")) < 15_000);
  await page.screenshot({ path: `${SHOTS}clock-low.png` });

  // The replay of a live game, from our own view so far.
  await page.click("#replay-open");
  const now = await page.evaluate(() => document.body.dataset.seq);
  await page.locator(`#replay[data-loaded="${now}"]`).waitFor(WAIT);
  await page.click("#replay-back");
  await page.locator(`#replay[data-loaded="${BigInt(now) - 1n}"]`).waitFor(WAIT);
  await page.click("#replay-close");
  await page.locator("#replay").waitFor({ state: "detached", ...WAIT });

  // Leave the seat (after the confirm): the page watches on.
  page.once("dialog", (dlg) => dlg.accept());
  await page.click("#leave-seat");
  await page.locator(".table-info", { hasText: "Spectating" }).waitFor(WAIT);
  assert.equal(await page.evaluate((id) => localStorage.getItem(`xodus.seat.${id}`), gameId), null, "the token is forgotten");
  assert.equal(await page.locator("#leave-seat").count(), 0);
  // The lobby shows the seat open again, and the game's clock.
  await page.click(".table-info button.back");
  const card = page.locator(`.game[data-game="${gameId}"]`);
  await card.locator('button.join[data-seat="0"]').waitFor(WAIT);
  assert.match(await card.locator(".gclock").textContent(), /0:25 per move/);
  assert.match(await card.locator(".seat").first().textContent(), /free/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// ---------------------------------------------------------------------------
// The restart case: `xodus play --web` (the real CLI) stopped with Ctrl-C
// and started again; the page reloads onto the same seat and plays on.

/** Starts `xodus play --web` on `data`; resolves with it and its URL. */
function playWeb(data) {
  const bin = process.env.XODUS_BIN_DIR;
  const dist = new URL("../dist/", import.meta.url).pathname;
  const child = spawn(`${bin}/xodus`, ["play", "--web", "--web-dir", dist, "--data-dir", data, "--ai-policy", "random", "--ai-courtesy-ms", "0"], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1" },
  });
  let out = "";
  let err = "";
  child.stderr.on("data", (b) => (err += b));
  return new Promise((resolve, reject) => {
    const guard = setTimeout(() => reject(new Error(`xodus play --web printed no URL: ${err}`)), 120_000);
    child.stdout.on("data", (b) => {
      out += b;
      const m = /^open (\S+)/m.exec(out);
      if (m) {
        clearTimeout(guard);
        resolve({ child, url: m[1].replace(/\/$/, ""), stderr: () => err });
      }
    });
    child.on("exit", (code) => reject(new Error(`xodus play --web exited (${code}): ${err}`)));
  });
}

/** Stops it with SIGINT (Ctrl-C) and waits until it is gone. */
function interrupt(web) {
  return new Promise((resolve) => {
    if (web.child.exitCode !== null) return resolve(web.child.exitCode);
    web.child.once("exit", (code, sig) => resolve(code ?? sig));
    web.child.kill("SIGINT");
  });
}

test("xodus play --web stopped with Ctrl-C and run again: same address, the reloaded page holds its seat, AI captains move again, the game plays to its end", { skip: !process.env.XODUS_BIN_DIR && "needs XODUS_BIN_DIR" }, async () => {
  const data = mkdtempSync(join(tmpdir(), "xodus-web-restart-"));
  let web;
  try {
    web = await playWeb(data);
    const page = await openPage(undefined, `${web.url}/`);
    const gameId = await createGame(page, ["human", "ai", "ai"], 21);
    const random = rng(21);
    const stats = { moves: 0, mapClicks: 0, undone: true };
    while (stats.moves < 5 && (await move(page, random, stats)));
    assert.notEqual(await ready(page), null, "the game is still on");
    const token = await page.evaluate((id) => JSON.parse(localStorage.getItem(`xodus.seat.${id}`)).token, gameId);

    const code = await interrupt(web);
    await page.locator(".table-info .live.off").waitFor(WAIT);
    const first = web.url;
    web = await playWeb(data);
    assert.equal(web.url, first, "the same address after the restart");
    await page.reload();
    await page.locator('#decision[data-seq]:not([data-seq=""])').waitFor(WAIT);
    assert.match(await page.textContent(".table-info"), /You: Captain 0 \(/, "the saved token still holds seat 0");
    assert.equal(await page.evaluate((id) => JSON.parse(localStorage.getItem(`xodus.seat.${id}`)).token, gameId), token);
    // The new captains take the AI seats back.
    await page.locator('.mat[data-seat="1"] .who', { hasText: "AI" }).waitFor(WAIT);
    await page.locator('.mat[data-seat="2"] .who', { hasText: "AI" }).waitFor(WAIT);
    // Play on to the end (bounded): the AI seats move, so the game goes
    // further than our own clicks.
    const seqAt = BigInt(await page.evaluate(() => document.body.dataset.seq));
    const after = { moves: 0, mapClicks: 0, undone: true };
    while (after.moves < 400 && (await move(page, random, after)));
    const seqEnd = BigInt(await page.evaluate(() => document.body.dataset.seq));
    console.log(`# restart game ${gameId}: first run stopped with ${code}; ${after.moves} clicks after the restart, seq ${seqAt} -> ${seqEnd}`);
    assert.ok(seqEnd - seqAt > BigInt(after.moves), "the AI captains moved after the restart");
    await page.locator("#outcome").waitFor({ state: "visible", ...WAIT });
    assert.match(await page.textContent("#outcome"), /(Victory|Defeat)/);
    // The browser logs the failed calls of the moment the server was down.
    const errors = page.errors.filter((e) => !/^console: Failed to load resource: net::ERR_(FAILED|CONNECTION_REFUSED|EMPTY_RESPONSE|CONNECTION_RESET)$/.test(e));
    assert.deepEqual(errors, []);
    await page.context().close();
  } finally {
    if (web) await interrupt(web);
    rmSync(data, { recursive: true, force: true });
  }
});
