// Real-browser tests of VII Legio in the page (node:test + playwright-core
// driving Debian's headless Chromium; web/tests/run.sh starts the server
// and an `xodus-ai --fill` daemon, which plays the AI commanders). Every
// move of a human is a click in the page: a decision button or, where an
// option aims at a place of the table (a sector, a planet, a card in hand,
// a commander...), that place. No timed assertion: waits are for states
// of the page; their timeouts only stop a hung run. Figures (clicks,
// rounds, seconds) are printed, not asserted.
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
/** A page of this run's browser (see page.mjs) that records what it
 * receives (`recordReceived`). */
const openPage = (viewport, url = URL_) => openPageOf(browser, url, viewport, recordReceived);
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

/** Keeps a copy of every response body the page receives over fetch (the
 * gRPC-Web calls and streams), except the catalog: public content that
 * names every card, the same for every viewer. */
function recordReceived() {
  const orig = window.fetch.bind(window);
  window.__received = [];
  window.fetch = async (input, init) => {
    const res = await orig(input, init);
    const url = typeof input === "string" ? input : input.url;
    if (!res.body || /GetCatalog/.test(url)) return res;
    const [mine, copy] = res.body.tee();
    (async () => {
      const reader = copy.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          let s = "";
          for (let i = 0; i < value.length; i += 8192) s += String.fromCharCode(...value.subarray(i, i + 8192));
          window.__received.push(s);
        }
      } catch {
        // The call was cancelled: what came is kept.
      }
    })();
    return new Response(mine, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

/** Creates a VII Legio game from the lobby form: `who` per commander,
 * a seed and a round limit; returns its id once the table shows. */
async function createLegio(page, who, seed, roundLimit) {
  await page.selectOption("#game-type", "legio");
  await page.selectOption("#legio-players", String(who.length));
  for (let i = 0; i < who.length; i++) await page.selectOption(`#legio-who-${i}`, who[i]);
  await page.fill("#legio-seed", String(seed));
  await page.fill("#legio-round-limit", String(roundLimit));
  await page.click("#create-game");
  await page.locator('#decision[data-seq]:not([data-seq=""])').waitFor(WAIT);
  await page.locator(".nebula").waitFor(WAIT);
  return page.evaluate(() => decodeURIComponent(location.hash.replace("#/game/", "")));
}

function cssEscape(s) {
  return s.replace(/["\\]/g, "\\$&");
}

/** Answers yes when the page asks before a costly option (the whole hand
 * spent, cards left in hand at the end of the turn). */
async function confirmIfAsked(page) {
  if (await page.locator("#confirm:not([hidden])").count()) await page.click("#confirm-yes", { timeout: 5000 });
}

/** One move by clicking: a random option, on the table when it aims at a
 * place no other option aims at (most of the time), else its button.
 * "Declare the end" is taken only when it is the one option. Returns
 * false once the game is over. */
async function move(page, random, stats) {
  const seq = await ready(page);
  if (seq === null) return false;
  const options = await page.$$eval("#decision button.option", (bs) => bs.map((b) => ({ id: b.dataset.id, target: b.dataset.target ?? "" })));
  if (!options.length || (await page.getAttribute("#decision", "data-seq")) !== seq) return true;
  const pool = options.length > 1 ? options.filter((o) => o.id !== "declare_end") : options;
  const pick = pool[Math.floor(random() * pool.length)];
  const same = pick.target ? options.filter((o) => o.target === pick.target).length : 0;
  try {
    const place = page.locator(`.table .target[data-target="${cssEscape(pick.target)}"]:not(button)`);
    if (same === 1 && random() < 0.6 && (await place.count()) === 1) {
      await place.click({ timeout: 5000 });
      stats.tableClicks++;
      stats.kinds.add(pick.target.split(":")[0]);
    } else {
      await page.locator(`#decision button.option[data-id="${cssEscape(pick.id)}"]`).click({ timeout: 5000 });
    }
    await confirmIfAsked(page);
  } catch {
    return true; // The decision changed under the pointer: look again.
  }
  stats.moves++;
  // The game moves on; or the click sent nothing (the page was not open
  // to a pick at that instant) and the same decision is open again, with
  // no question asked and nothing in flight: then pick again.
  await page.waitForFunction(
    (prev) => {
      if (document.querySelector("#outcome:not([hidden])")) return true;
      const d = document.querySelector("#decision");
      if (d?.dataset.seq !== prev) return true;
      const idle = d.dataset.pending === "0" && d.dataset.armed === "1" && document.querySelector("#confirm")?.hidden !== false;
      return idle && !!d.querySelector("button.option:not([disabled])");
    },
    seq,
    WAIT,
  );
  return true;
}

/** Neither sideways scrolling nor a cut label, and the decision in the
 * first screen, above the map. */
async function phoneChecks(page, what) {
  const m = await page.evaluate(() => {
    const cut = [...document.querySelectorAll("#decision button.option, .table-info > *, .sector, .planet, .pcard, .board header > *, .ltrack h2, .contact")]
      .filter((e) => e.getBoundingClientRect().width > 0 && (e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > innerWidth + 0.5))
      .map((e) => `${e.className}: ${e.textContent.slice(0, 40)}`);
    const d = document.querySelector("#decision").getBoundingClientRect();
    const board = document.querySelector(".board-box").getBoundingClientRect();
    return { scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth, cut, decision: d.top, board: board.top, vh: innerHeight };
  });
  assert.ok(m.scroll <= m.client, `${what}: nothing scrolls sideways: ${m.scroll} > ${m.client}`);
  assert.deepEqual(m.cut, [], `${what}: no label is cut off`);
  assert.ok(m.decision < m.vh, `${what}: the decision starts in the first screen: ${JSON.stringify(m)}`);
  assert.ok(m.decision < m.board, `${what}: the decision comes before the map`);
}

test("one human and three AI commanders play VII Legio to its final scores by clicking; a reload mid-game resumes the seat; the phone layout", async () => {
  const t0 = Date.now();
  const page = await openPage();
  // The lobby lists and filters both games; the VII Legio form is its own.
  await page.selectOption("#game-type", "legio");
  assert.ok(await page.locator(".setup-legio").isVisible());
  assert.ok(await page.locator(".setup-xodus").isHidden());
  assert.equal(await page.inputValue("#legio-players"), "3", "3 commanders by default, as in the terminal");
  const gameId = await createLegio(page, ["human", "ai", "ai", "ai"], 41, 10);
  // The title and the top bar name the game on the table.
  assert.match(await page.title(), /^VII Legio — g-/);
  assert.equal(await page.textContent(".top h1"), "VII Legio");
  assert.match(await page.textContent(".table-info"), /VII Legio.*You: Commander 1/);
  assert.doesNotMatch(await page.textContent(".table-info"), /seat \d/i, "no bare seat number in the header");
  // The table: six places on the map, four boards, both tracks, the contacts.
  assert.equal(await page.locator(".nebula .sector").count(), 6);
  await page.locator('.boards .board[data-seat="3"] .who', { hasText: "AI" }).waitFor(WAIT);
  assert.equal(await page.locator(".boards .board").count(), 4);
  assert.equal(await page.locator(".ltrack").count(), 2);
  assert.match(await page.textContent(".contacts"), /A \(face up\).*B \(face down\).*X pile.*Imperator/s);
  await page.locator("#private").waitFor(WAIT);
  const random = rng(41);
  const stats = { moves: 0, tableClicks: 0, kinds: new Set() };
  while (stats.moves < 12 && (await move(page, random, stats)));

  // A reload while the game waits on us resumes the seat from its last seq.
  assert.notEqual(await ready(page), null, "the game is still on");
  const before = await page.evaluate((id) => JSON.parse(localStorage.getItem(`xodus.seat.${id}`)), gameId);
  const claims = [];
  page.on("request", (r) => r.url().endsWith("/ClaimSeat") && claims.push(r.url()));
  await page.reload();
  await page.locator('#decision[data-seq]:not([data-seq=""])').waitFor(WAIT);
  await page.locator(".nebula").waitFor(WAIT);
  assert.match(await page.textContent(".table-info"), /You: Commander 1/, "same seat after the reload");
  assert.deepEqual(claims, [], "the seat is not claimed again");
  assert.equal((await page.evaluate((id) => JSON.parse(localStorage.getItem(`xodus.seat.${id}`)), gameId)).token, before.token);
  await page.locator("#private").waitFor(WAIT);

  // On a 390x844 phone: the decision first, nothing sideways, no cut label.
  await page.setViewportSize({ width: 390, height: 844 });
  await ready(page);
  await phoneChecks(page, "VII Legio");
  await page.screenshot({ path: `${SHOTS}legio-phone.png` });
  await page.setViewportSize({ width: 1366, height: 768 });

  // How to win: the header's button and the ? key open and close it.
  await page.click("#rules-open");
  const rules = page.locator("#rules");
  await rules.waitFor({ state: "visible" });
  const rulesText = await rules.textContent();
  assert.match(rulesText, /most PC among those with 10 PX or more wins/);
  assert.match(rulesText, /13 PX or more may declare the end/);
  assert.match(rulesText, /Round limit:.*no winner/);
  assert.match(rulesText, /Each card left in your hand when your turn ends costs 1 PC/);
  for (const tag of ["Signal:", "Discard:", "Xeno ship:", "Oz ore:", "Discovery:", "Drift:", "Hazard:"]) assert.ok(rulesText.includes(tag), `the rules say what ${tag} means`);
  await page.keyboard.press("?");
  await rules.waitFor({ state: "hidden" });
  await page.keyboard.press("?");
  await rules.waitFor({ state: "visible" });
  await page.click("#rules-close");
  await rules.waitFor({ state: "hidden" });

  let shot = false;
  while (await move(page, random, stats)) {
    // The README's picture: mid-game, once a planet is on the map (or
    // after 25 clicks), with our options open.
    if (!shot && stats.moves >= 20 && (stats.moves >= 25 || (await page.locator(".nebula .planet").count())) && (await ready(page)) !== null) {
      await page.screenshot({ path: `${SHOTS}legio-table.png` });
      shot = true;
    }
  }
  const outcome = page.locator("#outcome");
  await outcome.waitFor({ state: "visible", ...WAIT });
  assert.match(await outcome.textContent(), /Final scores/);
  // The header says the game is over and who won, not who is "to play".
  const where = await page.textContent(".table-info .where");
  assert.match(where, /^Game over: (Commanders? [\d, and]+ wins?|nobody reached 10 PX, no winner|cut by the round limit, no winner)$/);
  assert.equal(await page.locator(".boards .board .flags", { hasText: "to play" }).count(), 0, "no board says \"to play\" after the end");
  assert.equal(await outcome.locator(".scores tr").count(), 4, "every commander ranked");
  assert.match(await outcome.locator(".scores").textContent(), /Commander 1 \(you\).*PC/s);
  await page.screenshot({ path: `${SHOTS}legio-outcome.png` });
  await page.getByRole("button", { name: "Look at the board" }).click();
  if (!shot) await page.screenshot({ path: `${SHOTS}legio-table.png` });
  // The log names commanders, in words.
  assert.match(await page.textContent(".log"), /Commander 2/);
  // The replay of the finished game draws a step from another seat's view.
  await page.click("#replay-open");
  await page.locator("#replay[data-loaded]:not([data-loaded=''])").waitFor(WAIT);
  await page.fill("#replay-jump", "5");
  await page.click("#replay-go");
  await page.locator('#replay[data-loaded="5"] .nebula').waitFor(WAIT);
  await page.selectOption("#replay-seat", "2");
  await page.locator('#replay[data-loaded="5"] .nebula').waitFor(WAIT);
  await page.click("#replay-close");
  // The lobby lists the game under its type, and filters by type.
  await page.click(".table-info button.back");
  const card = page.locator(`.game[data-game="${gameId}"]`);
  await card.waitFor(WAIT);
  assert.equal(await card.getAttribute("data-type"), "legio");
  assert.match(await card.textContent(), /VII Legio.*Commander 1/s);
  assert.doesNotMatch(await card.locator(".seats").textContent(), /seat \d/i, "the lobby names commanders, not seat numbers");
  await page.selectOption("#game-filter", "xodus");
  await card.waitFor({ state: "detached", ...WAIT });
  await page.selectOption("#game-filter", "legio");
  await card.waitFor(WAIT);
  assert.equal(await page.locator('.game:not([data-type="legio"])').count(), 0, "only VII Legio games listed");
  await page.selectOption("#game-filter", "");
  console.log(`# legio game ${gameId}: ${stats.moves} clicks (${stats.tableClicks} on the table: ${[...stats.kinds].join(", ")}), ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

/** A seat's own secret cards as its page shows them: catalog id and name. */
function secretsOf(page) {
  return page.$$eval("#private .hand .pcard, #private .objectives .pcard, #private .offer .pcard", (cs) =>
    cs.map((c) => ({ id: c.dataset.cardId, name: c.querySelector(".cname").textContent })));
}

/** Everything a page holds: its DOM (text and attributes) and every body
 * it received but the catalog. */
async function holdings(page) {
  return page.evaluate(() => ({ dom: document.documentElement.outerHTML, received: window.__received.join("") }));
}

function escapeRe(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

test("two humans and one AI commander at one VII Legio table: neither page holds the other's hand or objectives; a spectator sees no hand", async () => {
  const t0 = Date.now();
  const a = await openPage();
  const b = await openPage();
  const gameId = await createLegio(a, ["human", "human", "ai"], 42, 8);
  const join = b.locator(`button.join[data-game="${gameId}"][data-seat="1"]`);
  await join.click(WAIT);
  await b.locator("#private").waitFor(WAIT);
  assert.match(await b.textContent(".table-info"), /You: Commander 2/);
  const c = await openPage();
  await c.locator(`.game[data-game="${gameId}"] button.watch`).click(WAIT);
  await c.locator(".nebula").waitFor(WAIT);
  assert.match(await c.textContent(".table-info"), /Spectating/);
  // VII Legio's spectators see the game 10 choices behind (its default
  // spectator policy): the page says so instead of "live"; the seated
  // players see it live.
  await c.locator(".table-info .live.delayed").waitFor(WAIT);
  assert.match(await c.textContent(".table-info .live"), /^● delayed: \d+ choices? behind$/);
  for (const p of [a, b]) assert.equal(await p.textContent(".table-info .live"), "● live", "a seated player sees the game live");
  const delayed = c.locator('.table-info .live.delayed[data-behind="10"]', { hasText: "● delayed: 10 choices behind" });

  // What each seat ever held itself (a card may change hands through the
  // deck), and the checks made.
  const held = [new Set(), new Set()];
  const checked = { cards: 0, skipped: 0, rounds: 0 };
  const note = async (i, page) => {
    for (const s of await secretsOf(page)) held[i].add(s.name);
  };
  /** The check: no card of `owner`'s own secrets is in `other`'s DOM or in
   * any body `other` received, unless it is public (the spectator's page
   * shows it: played face up earlier, in the log) or `other` held it. */
  const check = async (owner, other, otherIndex) => {
    const secrets = await secretsOf(owner);
    const { dom, received } = await holdings(other);
    // The recording works: the stream's log lines are in it.
    assert.ok(received.includes("Commander 1"), "the page's received bodies are recorded");
    const publicText = await c.evaluate(() => document.body.innerText);
    for (const s of secrets) {
      if (held[otherIndex].has(s.name) || publicText.includes(s.name)) {
        checked.skipped++;
        continue;
      }
      checked.cards++;
      assert.ok(!dom.includes(s.name), `the other page's DOM names ${s.name}`);
      assert.ok(!new RegExp(`\\b${s.id}\\b`).test(dom), `the other page's DOM holds the id ${s.id}`);
      assert.ok(!received.includes(s.name), `the other page received the name ${s.name}`);
      assert.ok(!received.includes(`:${s.id}`), `the other page received the id ${s.id}`);
    }
  };
  const checkBoth = async () => {
    await check(b, a, 0);
    await check(a, b, 1);
    checked.rounds++;
  };

  const sa = { moves: 0, tableClicks: 0, kinds: new Set() };
  const sb = { moves: 0, tableClicks: 0, kinds: new Set() };
  const ra = rng(43);
  const rb = rng(44);
  const play = async (page, i, random, stats) => {
    for (;;) {
      await note(i, page);
      if (!(await move(page, random, stats))) return;
      if (stats.moves % 4 === 0) await checkBoth();
    }
  };
  const playing = Promise.all([play(a, 0, ra, sa), play(b, 1, rb, sb)]);
  // Past the first ten choices the spectator is the policy's 10 behind.
  await delayed.waitFor(WAIT);
  assert.doesNotMatch(await c.textContent(".table-info"), /live/);
  await playing;
  await checkBoth();
  assert.ok(checked.cards > 0, `cards were checked: ${JSON.stringify(checked)}`);

  // The spectator: no private panel, no card of anyone's hand in its DOM.
  assert.equal(await c.locator("#private").count(), 0, "a spectator sees no hand");
  assert.equal(await c.locator("[data-card-id]").count(), 0);
  for (const p of [a, b, c]) {
    await p.locator("#outcome").waitFor({ state: "visible", ...WAIT });
    assert.match(await p.textContent("#outcome"), /Final scores/);
  }
  console.log(`# legio secrecy game ${gameId}: seat 0 made ${sa.moves} clicks, seat 1 made ${sb.moves}; ${checked.rounds} checks over ${checked.cards} secret cards (${checked.skipped} skipped as public or once held), ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  for (const p of [a, b, c]) assert.deepEqual(p.errors, []);
  for (const p of [a, b, c]) await p.context().close();
});

test("on a 390x844 phone both games put the decision first, cut no label and never scroll sideways", async () => {
  const page = await openPage({ width: 390, height: 844 });
  const sideways = () => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
  assert.ok(await sideways(), "the lobby does not scroll sideways");
  const cutInForm = () => page.$$eval(".create label, .create .seat-row > span, .create button", (es) =>
    es.filter((e) => e.getBoundingClientRect().width > 0 && (e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > innerWidth + 0.5)).map((e) => e.textContent));
  assert.deepEqual(await cutInForm(), [], "no label of the X-ODUS form is cut off");
  await page.selectOption("#game-type", "legio");
  assert.ok(await sideways(), "nor with the VII Legio form");
  assert.deepEqual(await cutInForm(), [], "no label of the VII Legio form is cut off");
  await createLegio(page, ["human", "human"], 45, 2);
  await ready(page);
  await phoneChecks(page, "VII Legio");
  // X-ODUS, from the same lobby.
  await page.click(".table-info button.back");
  await page.locator("#create-game").waitFor(WAIT);
  await page.selectOption("#game-type", "xodus");
  await page.selectOption("#ship-count", "3");
  for (let i = 0; i < 3; i++) await page.selectOption(`#who-${i}`, "human");
  await page.click("#create-game");
  await page.locator("svg.board .tile").first().waitFor(WAIT);
  await ready(page);
  await phoneChecks(page, "X-ODUS");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a VII Legio decision of 16 options or more at 1280x800 and 390x844: every option inside its panel, none overlapping, the list scrolling, the keyboard's selection in view; a costly option is asked about first", async () => {
  const page = await openPage({ width: 1280, height: 800 });
  await createLegio(page, ["human", "ai"], 41, 10);
  const sent = [];
  page.on("request", (r) => r.url().endsWith("/tabletop.v1.GameService/SubmitChoice") && sent.push((r.postDataBuffer() ?? Buffer.alloc(0)).toString("latin1")));
  const decision = () => page.evaluate(() => {
    const d = document.querySelector("#decision");
    return {
      seq: d.dataset.seq, kind: d.dataset.kind, heading: d.querySelector("h2")?.textContent, where: document.querySelector(".table-info .where")?.textContent,
      options: [...d.querySelectorAll("button.option")].map((b) => ({ id: b.dataset.id, key: b.dataset.key ?? "", label: b.querySelector(".label").textContent })),
    };
  });
  // Draw as many cards as the ship may, and end the turn, until "Your
  // move" offers 16 options or more (a hand of four at the Star Base does).
  let d;
  for (let i = 0; i < 80; i++) {
    const seq = await ready(page);
    assert.notEqual(seq, null, "the game is still on");
    d = await decision();
    // The header follows the decision's deciders, in the setup as later.
    assert.match(d.where, /· Commander 1 to play$/, `the header names who decides: ${d.where}`);
    if (d.options.length >= 16) break;
    const pick = d.kind === "draw" ? d.options.at(-1).id : d.options.find((o) => o.id === "end_turn")?.id ?? d.options[0].id;
    await page.click(`#decision button.option[data-id="${cssEscape(pick)}"]`);
    await confirmIfAsked(page);
    await page.waitForFunction((prev) => document.querySelector("#outcome:not([hidden])") || document.querySelector("#decision")?.dataset.seq !== prev, seq, WAIT);
  }
  assert.ok(d.options.length >= 16, `a decision of 16 options or more came up: ${d.options.length}`);
  assert.equal(d.kind, "turn");
  assert.deepEqual(d.options.slice(0, 12).map((o) => o.key), ["1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c"], "keys 1-9, then letters");
  for (const vp of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(vp);
    await page.evaluate(() => document.querySelector("#app").scrollTo(0, 0));
    const what = `VII Legio at ${vp.width}x${vp.height}`;
    const m = await assertDecisionLayout(page, what);
    assert.ok(m.scrolls, `${what}: ${m.options} options make the list scroll (${m.listHeight} px high)`);
    assert.ok(m.panelBottom <= m.vh, `${what}: the whole panel is in the first screen: ${m.panelBottom} > ${m.vh}`);
    await assertSelectionShows(page, what);
    await page.screenshot({ path: `${SHOTS}legio-long-decision-${vp.width}.png` });
  }

  // Ending the turn with cards in hand: its key (a letter, past 9) asks
  // first, in the page, saying what goes; Escape goes back and sends
  // nothing; the button, then "Yes", sends it.
  const end = d.options.find((o) => o.id === "end_turn");
  assert.ok(end?.key && /^[a-z]$/.test(end.key), `"End your turn" has a letter key: ${JSON.stringify(end)}`);
  const before = sent.length;
  const confirm = page.locator("#confirm");
  const priced = /left in hand/.test(end.label);
  await page.keyboard.press(end.key);
  if (!priced) {
    // A server that sends no price: nothing to ask, the choice goes.
    console.log(`# the server sends no price ("${end.label}"): no question asked`);
    await page.waitForFunction((prev) => document.querySelector("#decision")?.dataset.seq !== prev, d.seq, WAIT);
    assert.equal(await confirm.isVisible(), false);
  } else {
    await confirm.waitFor({ state: "visible" });
    const question = await page.textContent("#confirm-text");
    assert.match(question, /^(\d+ cards? left in hand \(.+\) costs? \d+ PC|This spends your whole hand: \d+ cards \(.+\))\.$/);
    assert.ok(await page.evaluate(() => document.activeElement?.id === "confirm-yes"), "the focus is on Yes");
    const box = await confirm.boundingBox();
    assert.ok(box.x >= 0 && box.y >= 0 && box.x + box.width <= 390 && box.y + box.height <= 844, `the question fits the phone's screen: ${JSON.stringify(box)}`);
    await page.keyboard.press("Escape");
    await confirm.waitFor({ state: "hidden" });
    await page.locator(`#decision[data-seq="${d.seq}"][data-armed="1"]`).waitFor(WAIT);
    assert.equal(sent.length, before, "nothing sent after Escape");
    assert.ok(await page.evaluate(() => document.activeElement?.dataset?.id === "end_turn"), "back on the option asked about");
    // A click asks too; "No, go back" sends nothing.
    await page.locator('#decision button.option[data-id="end_turn"]').click();
    await confirm.waitFor({ state: "visible" });
    await page.click("#confirm-no");
    await confirm.waitFor({ state: "hidden" });
    assert.equal(sent.length, before, "nothing sent after No");
    // The key again; Tab stays on the question's two buttons; Enter on
    // "Yes" sends it (the other tests' moves click "Yes").
    await page.locator(`#decision[data-seq="${d.seq}"][data-armed="1"]`).waitFor(WAIT);
    await page.keyboard.press(end.key);
    await confirm.waitFor({ state: "visible" });
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement?.id), "confirm-no");
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement?.id), "confirm-yes");
    await page.keyboard.press("Enter");
    await page.waitForFunction((prev) => document.querySelector("#decision")?.dataset.seq !== prev, d.seq, WAIT);
  }
  assert.equal(sent.length, before + 1, "one choice sent");
  assert.ok(sent.at(-1).includes("end_turn"), "the turn was ended");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("as a new user: `xodus play --web --game legio` opens the page on VII Legio's form; one human against an AI commander plays to the final scores", { skip: !process.env.XODUS_BIN_DIR && "needs XODUS_BIN_DIR" }, async () => {
  const t0 = Date.now();
  const data = mkdtempSync(join(tmpdir(), "xodus-web-legio-"));
  const dist = new URL("../dist/", import.meta.url).pathname;
  const child = spawn(`${process.env.XODUS_BIN_DIR}/xodus`, ["play", "--web", "--game", "legio", "--web-dir", dist, "--data-dir", data, "--ai-policy", "random"], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1" },
  });
  try {
    const url = await new Promise((resolve, reject) => {
      let out = "";
      const guard = setTimeout(() => reject(new Error("xodus play --web printed no URL")), 120_000);
      child.stdout.on("data", (b) => {
        out += b;
        const m = /^open (\S+)/m.exec(out);
        if (m) {
          clearTimeout(guard);
          resolve(m[1]);
        }
      });
      child.on("exit", (code) => reject(new Error(`xodus play --web exited (${code})`)));
    });
    assert.match(url, /\/#\/new\/legio$/, "the printed address opens VII Legio's form");
    const page = await openPage(undefined, url);
    assert.equal(await page.inputValue("#game-type"), "legio");
    assert.ok(await page.locator(".setup-legio").isVisible());
    await page.selectOption("#legio-players", "2");
    await page.selectOption("#legio-who-1", "ai");
    await page.fill("#legio-round-limit", "4");
    await page.click("#create-game");
    await page.locator(".nebula").waitFor(WAIT);
    await page.locator('.boards .board[data-seat="1"] .who', { hasText: "AI" }).waitFor(WAIT);
    const random = rng(46);
    const stats = { moves: 0, tableClicks: 0, kinds: new Set() };
    while (await move(page, random, stats));
    await page.locator("#outcome").waitFor({ state: "visible", ...WAIT });
    assert.match(await page.textContent("#outcome"), /Final scores.*Commander 1 \(you\)/s);
    console.log(`# xodus play --web --game legio: ${stats.moves} clicks to the final scores, ${((Date.now() - t0) / 1000).toFixed(1)} s with start-up`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  } finally {
    await new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", resolve);
      child.kill("SIGINT");
    });
    rmSync(data, { recursive: true, force: true });
  }
});
