// Real-browser tests of the generic table (node:test + playwright-core
// driving Debian's headless Chromium; web/tests/run.sh starts the server
// with --demo-games and an `xodus-ai --fill` daemon): a game this page has
// no UI of its own for, played from the platform's messages alone. The
// game is High Card (`high_card`, hosted by `xodus-server --demo-games`):
// nine cards 1-9, each seat holds three nobody else sees, a turn selects a
// card of the hand ("Select 7", undoable), then plays it ("Play the
// selected card"); after six plays the higher score wins. Games are
// created with the real CLI (`xodus create`, from $XODUS_BIN_DIR); every
// move of the human is a click (or a key) in the page. The JSON view of
// seat 0 (GetView with the token the page holds) is read only to know
// which cards seat 0 holds; the page itself never reads it.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync } from "node:fs";
import { after, before, test } from "node:test";
import { promisify } from "node:util";
import { chromium } from "playwright-core";
import { assertDecisionLayout, assertSelectionShows } from "./layout.mjs";
import { openPageOf, ready, rng, WAIT } from "./page.mjs";

const URL_ = process.env.XODUS_URL ?? "http://127.0.0.1:50051";
/** A page of this run's browser (see page.mjs). */
const openPage = (viewport, url = URL_) => openPageOf(browser, url, viewport);
const BIN = process.env.XODUS_BIN_DIR ?? new URL("../../target/debug", import.meta.url).pathname;
const SHOTS = new URL("./screenshots/", import.meta.url).pathname;
mkdirSync(SHOTS, { recursive: true });
const run = promisify(execFile);

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

/** `xodus ARGS --server URL`, its standard output. */
async function xodus(...args) {
  const { stdout } = await run(`${BIN}/xodus`, [...args, "--server", URL_], { env: { ...process.env, NO_COLOR: "1" } });
  return stdout.trim();
}

/** A new High Card game: seat 0 open to humans, seat 1 to AI. */
async function createHighCard() {
  const id = await xodus("create", "--game", "high_card", "--players", "2", "--ai-seats", "1", "--id-only");
  assert.match(id, /^g-[0-9a-f]+$/, `a game id: ${id}`);
  return id;
}

/** The option buttons on screen: id, label and key. */
function options(page) {
  return page.$$eval("#decision button.option", (bs) => bs.map((b) => ({ id: b.dataset.id, label: b.querySelector(".label")?.textContent ?? "", key: b.dataset.key, kbd: b.querySelector("kbd")?.textContent })));
}

/** The cards seat 0 holds now, from its own JSON view: GetView over
 * gRPC-Web with the seat's token (the one the page keeps in localStorage);
 * the view's JSON (GameState.detail.json.view_json) names its hand. */
async function handOf(page, gameId) {
  const saved = await page.evaluate((id) => JSON.parse(localStorage.getItem(`xodus.seat.${id}`)), gameId);
  const field = (n, bytes) => Buffer.concat([Buffer.from([(n << 3) | 2, bytes.length]), bytes]);
  const creds = Buffer.concat([Buffer.from([0x08, saved.seat]), field(2, Buffer.from(saved.token))]);
  const msg = Buffer.concat([field(1, Buffer.from(gameId)), field(2, creds)]);
  const head = Buffer.alloc(5);
  head.writeUInt32BE(msg.length, 1);
  const res = await fetch(`${URL_}/tabletop.v1.GameService/GetView`, {
    method: "POST",
    headers: { "content-type": "application/grpc-web+proto", "x-grpc-web": "1" },
    body: Buffer.concat([head, msg]),
  });
  const body = Buffer.from(await res.arrayBuffer()).toString("latin1");
  const m = /"hand":\[([0-9,]*)\]/.exec(body);
  assert.ok(res.ok && m, `seat ${saved.seat}'s JSON view names its hand: ${res.status} ${JSON.stringify(body.slice(0, 300))}`);
  return m[1] ? m[1].split(",").map(Number) : [];
}

/** Every mention of a card in the page's DOM (option ids "select:7",
 * labels "Select 7", wherever they are). */
function cardsNamed(page) {
  return page.evaluate(() => {
    const html = document.documentElement.outerHTML;
    const text = document.body.innerText;
    const found = new Set();
    for (const m of html.matchAll(/select:(\d)/gi)) found.add(Number(m[1]));
    for (const m of text.matchAll(/\bselect (\d)\b/gi)) found.add(Number(m[1]));
    return [...found].sort();
  });
}

test("High Card on the generic table: listed in the lobby, seat 0 joined and played to its end by clicks and keys against the AI, undo, the final scores and the winner; no card seat 0 does not hold in the page; the decision at 390x844", async () => {
  const gameId = await createHighCard();
  const page = await openPage();

  // The lobby lists it under a readable name, with a Join button for the
  // human seat only (seat 1 is the AI's), and a filter option for its type.
  const card = page.locator(`.game[data-game="${gameId}"]`);
  await card.waitFor(WAIT);
  assert.equal(await card.getAttribute("data-type"), "high_card");
  assert.equal(await card.locator("header .gtype").textContent(), "High Card");
  assert.doesNotMatch(await card.textContent(), /does not play/);
  await card.locator('button.join[data-seat="0"]').waitFor(WAIT);
  assert.equal(await card.locator('button.join[data-seat="1"]').count(), 0, "no Join for the AI's seat");
  assert.match(await card.locator('.seat[data-seat="0"]').textContent(), /Seat 0 \(North\) — free \(for humans\)/);
  assert.ok((await page.locator('#game-filter option[value="high_card"]').textContent()) === "High Card", "the filter offers High Card");
  await page.screenshot({ path: `${SHOTS}generic-lobby.png` });

  await card.locator('button.join[data-seat="0"]').click();
  await page.locator('#decision[data-seq]:not([data-seq=""])').waitFor(WAIT);
  assert.doesNotMatch(await page.textContent("body"), /does not play/);
  await page.locator(".table.game-generic").waitFor(WAIT);
  assert.match(await page.title(), /^High Card — g-/);
  assert.equal(await page.textContent(".top h1"), "High Card");
  assert.equal(await page.textContent(".table-info .gtype"), "High Card");
  assert.match(await page.textContent(".table-info .seat-text"), /^You: Seat 0 \(North\)$/);
  // The seats and who holds them: the AI takes seat 1 (it may come a moment later).
  await page.locator('.generic-seat[data-seat="1"] .who', { hasText: /^AI$/ }).waitFor(WAIT);
  assert.equal(await page.textContent('.generic-seat[data-seat="0"] .who'), "you");
  assert.equal(await page.textContent(".generic-table h2"), "High Card");

  const random = rng(61);
  const held = new Set();
  let moves = 0, plays = 0, undone = false, keyed = false, phone = false;
  for (;;) {
    const seq = await ready(page);
    if (seq === null) break;
    const opts = await options(page);
    if ((await page.getAttribute("#decision", "data-seq")) !== seq || !opts.length) continue;
    const hand = await handOf(page, gameId);
    for (const c of hand) held.add(c);
    // The options: the same keys as every game's (1-9 then letters), and
    // cards of seat 0's own hand only.
    assert.deepEqual(opts.map((o) => o.kbd), opts.map((_, i) => "123456789abcdefghilmnoprstvwz"[i]));
    const kind = await page.getAttribute("#decision", "data-kind");
    assert.equal(await page.textContent("#decision .prompt"), "Pick a card");
    if (kind === "select") {
      assert.deepEqual(opts.map((o) => o.label).sort(), hand.map((c) => `Select ${c}`).sort(), `the options name seat 0's hand ${hand}`);
    } else {
      assert.equal(kind, "play");
      assert.deepEqual(opts.map((o) => o.label), ["Play the selected card"]);
    }
    const named = await cardsNamed(page);
    assert.deepEqual(named.filter((c) => !held.has(c)), [], `the page names only cards seat 0 held (${[...held]}): ${named}`);

    if (!phone) {
      // The decision on a 390x844 phone: first on the screen, every option
      // inside its panel, the keyboard's selection in view, nothing sideways.
      phone = true;
      await page.setViewportSize({ width: 390, height: 844 });
      await assertDecisionLayout(page, "High Card at 390x844");
      await assertSelectionShows(page, "High Card at 390x844");
      const where = await page.evaluate(() => ({
        decision: document.querySelector("#decision").getBoundingClientRect().top,
        table: document.querySelector(".generic-table").getBoundingClientRect().top,
        seats: document.querySelector(".generic-seats").getBoundingClientRect().top,
        scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth, vh: innerHeight,
      }));
      assert.ok(where.decision < where.vh && where.decision < where.table && where.decision < where.seats, `the decision comes first: ${JSON.stringify(where)}`);
      assert.ok(where.scroll <= where.client, `nothing scrolls sideways: ${JSON.stringify(where)}`);
      await page.screenshot({ path: `${SHOTS}generic-phone.png`, fullPage: true });
      await page.setViewportSize({ width: 1366, height: 768 });
      await page.locator("#decision button.option").first().focus();
    }

    if (kind === "play" && !undone && (await page.locator("#undo").count())) {
      // A selection may be taken back: the same hand is offered again.
      undone = true;
      await page.click("#undo");
      await page.locator('#decision[data-kind="select"][data-mine="1"][data-armed="1"]').waitFor(WAIT);
      assert.deepEqual((await options(page)).map((o) => o.label).sort(), hand.map((c) => `Select ${c}`).sort(), "after undo, the same hand to select from");
      continue;
    }
    const pick = opts[Math.floor(random() * opts.length)];
    if (!keyed && kind === "select") {
      keyed = true;
      await page.keyboard.press(pick.key);
    } else {
      await page.click(`#decision button.option[data-id="${pick.id}"]`);
    }
    moves++;
    if (kind === "play") plays++;
    if (moves === 3) await page.screenshot({ path: `${SHOTS}generic-table.png` });
    await page.waitForFunction((prev) => document.querySelector("#outcome:not([hidden])") || document.querySelector("#decision")?.dataset.seq !== prev, seq, WAIT);
  }
  console.log(`# High Card game ${gameId}: ${moves} choices (${plays} plays), undo ${undone ? "used" : "not offered"}`);
  assert.equal(plays, 3, "seat 0 played three cards");
  assert.ok(undone, "undo was offered after a selection");
  assert.ok(keyed, "one choice was made with its key");

  // The end: the final scores, the ranking and the winner, as the server says.
  const outcome = page.locator("#outcome");
  await outcome.waitFor({ state: "visible", ...WAIT });
  const end = JSON.parse(await xodus("view", gameId));
  const o = findOutcome(end);
  assert.ok(o, `the server's view has an outcome: ${JSON.stringify(end).slice(0, 400)}`);
  const scores = o.scores.map(Number);
  const winner = Number(o.winners[0]);
  const names = ["Seat 0 (North)", "Seat 1 (South)"];
  assert.equal(await outcome.locator("h2").textContent(), "Final scores");
  assert.match(await outcome.textContent(), /Ended by hands played, in round \d+\./);
  assert.match(await outcome.textContent(), new RegExp(`${names[winner].replace(/[()]/g, "\\$&")} wins\\.`));
  const rows = await outcome.locator("table.scores tr").evaluateAll((trs) => trs.map((tr) => ({ seat: Number(tr.dataset.seat), cells: [...tr.cells].map((c) => c.textContent), winner: tr.classList.contains("winner") })));
  assert.equal(rows.length, 2);
  assert.equal(rows[0].seat, winner, "the winner ranks first");
  for (const r of rows) {
    assert.equal(r.cells[2], String(scores[r.seat]), `seat ${r.seat}'s score`);
    assert.equal(r.winner, r.seat === winner);
    assert.match(r.cells[1], new RegExp(`^${names[r.seat].replace(/[()]/g, "\\$&")}${r.seat === 0 ? " \\(you\\)" : ""}$`));
  }
  assert.equal(await page.textContent(".table-info .where"), `Game over: ${names[winner]} wins`);
  await page.screenshot({ path: `${SHOTS}generic-outcome.png` });
  await page.getByRole("button", { name: "Look at the board" }).click();
  await outcome.waitFor({ state: "hidden" });
  // The table keeps the scores; the log holds the events' summary lines.
  assert.equal(await page.textContent(`.generic-seat[data-seat="${winner}"] .won`), "wins");
  assert.equal(await page.locator(".generic-table table.scores tr").count(), 2);
  const log = await page.$$eval(".log-lines li", (ls) => ls.map((l) => l.textContent));
  assert.equal(log.filter((l) => l === "card_played").length, 6, `six plays in the log: ${log}`);
  assert.ok(log.includes("card_selected") && log.includes("card_drawn"), `the log: ${log}`);
  // The replay, from seat 0's view: step 0 asks seat 0 to select one of
  // its first three cards; the last step is the outcome.
  const last = await page.evaluate(() => document.body.dataset.seq);
  await page.click("#replay-open");
  await page.locator(`#replay[data-loaded="${last}"] .generic-replay`).waitFor(WAIT);
  assert.match(await page.textContent("#replay .generic-replay"), /Final|wins/);
  await page.fill("#replay-jump", "0");
  await page.click("#replay-go");
  await page.locator('#replay[data-loaded="0"] .generic-replay').waitFor(WAIT);
  assert.equal(await page.textContent("#replay .replay-where"), "Your turn");
  assert.equal(await page.locator("#replay .replay-options li").count(), 3);
  await page.click("#replay-close");
  await page.locator("#replay").waitFor({ state: "detached", ...WAIT });
  // After the end too, no card seat 0 never held is named.
  const named = await cardsNamed(page);
  assert.deepEqual(named.filter((c) => !held.has(c)), [], `the page names only cards seat 0 held (${[...held]}): ${named}`);
  // The lobby says who won.
  await page.click(".table-info button.back");
  await page.locator(`.game[data-game="${gameId}"] .gstatus`, { hasText: `finished — ${names[winner]} won` }).waitFor(WAIT);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

/** The outcome inside `xodus view`'s output. */
function findOutcome(v) {
  if (!v || typeof v !== "object") return undefined;
  if (Array.isArray(v.scores) && Array.isArray(v.winners)) return v;
  for (const x of Object.values(v)) {
    const f = findOutcome(x);
    if (f) return f;
  }
  return undefined;
}

test("a spectator watches a High Card game on the generic table without options or cards; a seat joined from the lobby is left again", async () => {
  const gameId = await createHighCard();
  const watcher = await openPage();
  await watcher.locator(`.game[data-game="${gameId}"] button.watch`).click(WAIT);
  await watcher.locator(".table.game-generic").waitFor(WAIT);
  await watcher.locator('#decision[data-seq]:not([data-seq=""])').waitFor(WAIT);
  assert.match(await watcher.textContent(".table-info .seat-text"), /^Spectating$/);
  assert.equal(await watcher.locator("#decision button.option").count(), 0, "a spectator has no options");
  assert.match(await watcher.textContent("#decision h2"), /^Waiting for Seat 0 \(North, nobody yet\)$/);
  assert.match(await watcher.textContent("#decision"), /You are watching\./);
  // How to win: the page has no rules text of this game, and says so.
  await watcher.keyboard.press("?");
  await watcher.locator("#rules", { hasText: "This page has no rules text for High Card" }).waitFor(WAIT);
  await watcher.keyboard.press("Escape");
  await watcher.locator("#rules").waitFor({ state: "hidden", ...WAIT });

  // A player joins seat 0 from the lobby: the spectator's seats and
  // decision follow.
  const page = await openPage();
  await page.locator(`button.join[data-game="${gameId}"][data-seat="0"]`).click(WAIT);
  await page.locator('#decision[data-mine="1"] button.option').first().waitFor(WAIT);
  await watcher.locator('.generic-seat[data-seat="0"] .who', { hasText: /^human$/ }).waitFor(WAIT);
  await watcher.locator("#decision h2", { hasText: "Waiting for Seat 0 (North, human)" }).waitFor(WAIT);
  assert.deepEqual(await cardsNamed(watcher), [], "the spectator's page names no card");

  // The player leaves (after the confirm) and watches on; the lobby shows
  // the seat free again.
  page.once("dialog", (dlg) => dlg.accept());
  await page.click("#leave-seat");
  await page.locator(".table-info", { hasText: "Spectating" }).waitFor(WAIT);
  assert.equal(await page.locator("#decision button.option").count(), 0);
  assert.equal(await page.evaluate((id) => localStorage.getItem(`xodus.seat.${id}`), gameId), null, "the token is forgotten");
  await watcher.locator('.generic-seat[data-seat="0"] .who', { hasText: /^free \(for humans\)$/ }).waitFor(WAIT);
  await page.click(".table-info button.back");
  await page.locator(`.game[data-game="${gameId}"] button.join[data-seat="0"]`).waitFor(WAIT);
  for (const p of [page, watcher]) assert.deepEqual(p.errors, []);
  for (const p of [page, watcher]) await p.context().close();
});
