// Real-browser tests of advice on request (issue #62, part 4), for X-ODUS
// and VII Legio (node:test + playwright-core driving Debian's headless
// Chromium; web/tests/run.sh starts the server and an `xodus-ai --fill`
// daemon, which serves the hints). A seated page asks (the button, then
// Shift+H): the advised options show in the decision panel, ranked, with
// the estimate and the reason as text, the option buttons are marked, an
// X-ODUS system an advised option aims at is highlighted on the map, and
// the advice goes once the game moves on; a spectator's button is off; on
// a phone nothing scrolls sideways; the generic table (High Card) has the
// button too. A second server this test starts,
// with no agent, says in words that nobody serves hints. Games with human
// seats only (the page holds seat 0) so that nobody else moves. No timed
// assertion: waits are for states of the page; their timeouts only stop
// a hung run.
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { after, before, test } from "node:test";
import { chromium } from "playwright-core";
import { measureDecision } from "./layout.mjs";
import { openPageOf, ready, WAIT } from "./page.mjs";

const URL_ = process.env.XODUS_URL ?? "http://127.0.0.1:50051";
/** A page of this run's browser (see page.mjs). */
const openPage = (viewport, url = URL_) => openPageOf(browser, url, viewport);
const BIN = process.env.XODUS_BIN_DIR ?? new URL("../../target/debug", import.meta.url).pathname;
const DIST = new URL("../dist", import.meta.url).pathname;
const SHOTS = new URL("./screenshots/", import.meta.url).pathname;
mkdirSync(SHOTS, { recursive: true });
const PHONE = { width: 390, height: 844 };
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

/** Creates an X-ODUS game whose seats are all for humans (the page takes
 * seat 0, nobody the others), seed 7. */
async function soloXodus(page) {
  await page.selectOption("#ship-count", "3");
  for (let i = 0; i < 3; i++) await page.selectOption(`#who-${i}`, "human");
  await page.fill("#seed", "7");
  await page.click("#create-game");
  await page.locator('#decision[data-seq]:not([data-seq=""])').waitFor(WAIT);
  return page.evaluate(() => decodeURIComponent(location.hash.replace("#/game/", "")));
}

/** Asks for a hint (the button, or Shift+H) once the button is on, and
 * waits for the advice or a refusal. */
async function askHint(page, how = "button") {
  await page.locator("#hint-ask:not([disabled])").waitFor(WAIT);
  if (how === "key") await page.keyboard.press("Shift+H");
  else await page.click("#hint-ask");
  await page.waitForFunction(() => document.querySelector(".advice:not([hidden]) .advice-item") || !document.querySelector(".advice-error").hidden, undefined, WAIT);
}

/** The advice on the page, checked: 1-3 ranked items, each one of our
 * options (its label, an estimate, a reason, as text), the same options
 * marked in the list with their rank. Returns the items. */
async function checkAdvice(page) {
  const items = await page.$$eval(".advice .advice-item", (lis) => lis.map((li) => ({
    id: li.dataset.id, rank: li.dataset.rank, aims: li.dataset.aims ?? "", n: li.querySelector(".advice-rank-n")?.textContent,
    label: li.querySelector(".advice-label")?.textContent, est: li.querySelector(".advice-est")?.textContent, reason: li.querySelector(".advice-reason")?.textContent ?? "",
  })));
  assert.ok(items.length >= 1 && items.length <= 3, `1-3 advised options: ${JSON.stringify(items)}`);
  assert.equal(new Set(items.map((i) => i.id)).size, items.length, "each option once");
  const marked = await page.$$eval("#decision button.option.advised", (bs) => bs.map((b) => ({ id: b.dataset.id, rank: b.dataset.advice, mark: b.querySelector(".advice-rank")?.textContent, label: b.querySelector(".label")?.textContent })));
  assert.equal(marked.length, items.length, "every advised option is marked in the list");
  items.forEach((it, k) => {
    assert.equal(it.rank, String(k + 1));
    assert.equal(it.n, `${k + 1}.`);
    assert.match(it.est, /^est\. -?\d+\.\d\d$/, "the estimate");
    assert.ok(it.reason.trim().length > 0, `a reason: ${JSON.stringify(it)}`);
    const m = marked.find((b) => b.id === it.id);
    assert.ok(m, `the advised option ${it.id} is one of ours`);
    assert.equal(m.rank, it.rank);
    assert.equal(m.mark, `★${k + 1}`);
    assert.equal(m.label, it.label, "with the label the list shows");
  });
  return items;
}

/** The page's whole width fits the screen (no sideways scrolling). */
async function noSideways(page, what) {
  const w = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  assert.ok(w.scroll <= w.client, `${what}: the page does not scroll sideways: ${JSON.stringify(w)}`);
}

/** Picks the option ranked first by the advice (or, when the first
 * decision asks who starts, our seat: nobody holds the others), and waits
 * for the next state. */
async function takeAdvice(page) {
  const seq = await page.getAttribute("#decision", "data-seq");
  const start = page.locator('#decision button.option[data-id="start:0"]');
  await ((await start.count()) ? start : page.locator('#decision button.option[data-advice="1"]')).click();
  await page.waitForFunction((prev) => document.querySelector("#decision")?.dataset.seq !== prev, seq, WAIT);
}

test("X-ODUS: a seated player asks for a hint (button, Shift+H): ranked options with estimates and reasons, marked in the list, an advised system lit on the map; the advice goes once the game moves; a spectator's button is off", async () => {
  const page = await openPage();
  const gameId = await soloXodus(page);
  assert.ok(await ready(page), "our decision");
  assert.match(await page.getAttribute("#hint-ask", "title"), /Shift\+H/);
  await askHint(page);
  assert.equal(await page.locator(".advice-error:not([hidden])").count(), 0, `no refusal: ${await page.textContent(".advice-error")}`);
  await checkAdvice(page);
  // Play the advice until an advised option aims at a system (the first
  // decision chooses who starts; then Actions aim at systems).
  for (let i = 0; i < 8 && !(await page.locator("svg.board .advice-hl").count()); i++) {
    await takeAdvice(page);
    // The advice was about the state before: it is gone.
    assert.equal(await page.locator(".advice .advice-item, #decision .option.advised, .advice-hl").count(), 0, "the advice goes once the game moved");
    assert.ok(await ready(page), "our decision again");
    await askHint(page, "key");
    await checkAdvice(page);
  }
  const lit = await page.$$eval("svg.board .advice-hl[data-hex]", (els) => els.map((e) => ({ hex: e.getAttribute("data-hex"), rank: e.getAttribute("data-advice") })));
  assert.ok(lit.length > 0, "an advised system is highlighted on the map");
  for (const l of lit) {
    const aimed = await page.$$eval(`#decision button.option.advised[data-advice="${l.rank}"]`, (bs) => bs.map((b) => b.dataset.hex));
    assert.deepEqual(aimed, [l.hex], `the system lit is the one advised option ${l.rank} aims at`);
  }
  await page.screenshot({ path: `${SHOTS}hint-xodus.png` });

  // A spectator's button is off (and says why).
  const watcher = await openPage();
  await watcher.locator(`.game[data-game="${gameId}"] button.watch`).click(WAIT);
  await watcher.locator("#hint-ask").waitFor(WAIT);
  assert.ok(await watcher.locator("#hint-ask").isDisabled(), "no hint for a spectator");
  assert.match(await watcher.getAttribute("#hint-ask", "title"), /Spectators/);

  // The game moves on: the advice and its marks go.
  await takeAdvice(page);
  await page.waitForFunction(() => !document.querySelector(".advice .advice-item, .advice-hl, #decision .option.advised"), undefined, WAIT);
  for (const p of [page, watcher]) assert.deepEqual(p.errors, []);
  for (const p of [page, watcher]) await p.context().close();
});

test("VII Legio on a 390x844 phone: a commander's hint is marked in the decision panel (a sector it aims at lit on the map); nothing scrolls sideways", async () => {
  const page = await openPage(PHONE);
  await page.selectOption("#game-type", "legio");
  await page.selectOption("#legio-players", "2");
  for (let i = 0; i < 2; i++) await page.selectOption(`#legio-who-${i}`, "human");
  await page.fill("#legio-seed", "5");
  await page.click("#create-game");
  await page.locator(".nebula").waitFor(WAIT);
  const gameId = await page.evaluate(() => decodeURIComponent(location.hash.replace("#/game/", "")));
  // Commander 2 chooses first: until then the phone's button is off.
  await page.locator('#decision[data-mine="0"][data-seq="0"]').waitFor(WAIT);
  await page.locator("#hint-ask").waitFor(WAIT);
  assert.ok(await page.locator("#hint-ask").isDisabled(), "no hint without a decision");
  assert.match(await page.getAttribute("#hint-ask", "title"), /your own decision/);
  const other = await openPage();
  await other.locator(`button.join[data-game="${gameId}"][data-seat="1"]`).click(WAIT);
  // Commander 2 takes its first options until the phone's commander decides.
  for (let i = 0; i < 20; i++) {
    const h = await page.waitForFunction(() => {
      const d = document.querySelector("#decision");
      if (d?.dataset.mine === "1" && d.dataset.armed === "1" && d.querySelector("button.option")) return "mine";
      return false;
    }, undefined, { timeout: 1000 }).catch(() => null);
    if (h) break;
    const seq = await ready(other);
    const first = other.locator("#decision button.option").first();
    await first.click();
    if (await other.locator("#confirm-yes").count() && await other.locator("#confirm-yes").isVisible()) await other.click("#confirm-yes");
    await other.waitForFunction((prev) => document.querySelector("#decision")?.dataset.seq !== prev, seq, WAIT);
  }
  assert.ok(await ready(page), "our decision");
  await askHint(page);
  assert.equal(await page.locator(".advice-error:not([hidden])").count(), 0, `no refusal: ${await page.textContent(".advice-error")}`);
  const items = await checkAdvice(page);
  // A sector (or another place of the table) an advised option aims at is lit.
  for (const it of items.filter((i) => i.aims)) {
    await page.locator(`.nebula [data-target="${it.aims}"].advice-hl, .col-left [data-target="${it.aims}"].advice-hl`).first().waitFor({ state: "attached", ...WAIT });
  }
  await page.screenshot({ path: `${SHOTS}hint-legio-phone.png`, fullPage: true });
  await noSideways(page, "a commander's hint on a phone");
  const box = await page.evaluate(() => {
    const a = document.querySelector(".advice").getBoundingClientRect();
    const d = document.querySelector("#decision").getBoundingClientRect();
    return { left: a.left, right: a.right, dl: d.left, dr: d.right, vw: innerWidth };
  });
  assert.ok(box.left >= box.dl - 1 && box.right <= box.dr + 1 && box.right <= box.vw, `the advice fits its panel and the phone: ${JSON.stringify(box)}`);
  const layout = await measureDecision(page);
  assert.deepEqual(layout.problems, [], "the decision panel's options still fit");
  for (const p of [page, other]) assert.deepEqual(p.errors, []);
  for (const p of [page, other]) await p.context().close();
});

/** A second server serving the page, with no AI agent. */
async function bareServer() {
  const dir = mkdtempSync(join(tmpdir(), "xodus-web-hint-"));
  const proc = spawn(join(BIN, "xodus-server"), ["--listen", "127.0.0.1:0", "--data-dir", join(dir, "data"), "--web-dir", DIST], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, RUST_LOG: process.env.RUST_LOG ?? "warn" },
  });
  const port = await new Promise((resolve, reject) => {
    let out = "";
    proc.once("exit", (code) => reject(new Error(`xodus-server exited (${code}) before listening`)));
    proc.stdout.on("data", (d) => {
      out += d.toString();
      const m = /listening on 127\.0\.0\.1:(\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) {
        const exited = new Promise((r) => proc.once("exit", r));
        proc.kill("SIGTERM");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

test("a server with no AI agent: the hint is refused in words (nobody serves hints), and the button comes back", async () => {
  const server = await bareServer();
  try {
    const page = await openPage(undefined, server.url);
    await soloXodus(page);
    assert.ok(await ready(page), "our decision");
    await askHint(page);
    const error = page.locator(".advice-error:not([hidden])");
    assert.equal(await error.textContent(), "No AI adviser is running on this server: there is no hint to give.");
    assert.match(await error.getAttribute("title"), /^FAILED_PRECONDITION: no AI agent serves hints/, "the server's words in the tooltip");
    assert.equal(await page.locator(".advice .advice-item").count(), 0);
    // A seat may ask every 2 s: the button comes back after that.
    await page.locator("#hint-ask:not([disabled])").waitFor(WAIT);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  } finally {
    await server.stop();
  }
});

test("the generic table has the hint button too: High Card's seat asks, and gets advice or a refusal in words", async () => {
  const { stdout } = await run(`${BIN}/xodus`, ["create", "--game", "high_card", "--players", "2", "--ai-seats", "1", "--id-only", "--server", URL_], { env: { ...process.env, NO_COLOR: "1" } });
  const gameId = stdout.trim();
  const page = await openPage();
  await page.locator(`button.join[data-game="${gameId}"][data-seat="0"]`).click(WAIT);
  const seq = await ready(page);
  assert.ok(seq, "our decision");
  await askHint(page);
  const error = page.locator(".advice-error:not([hidden])");
  if (await error.count()) {
    // The agent has no advice for this game (or the AI seat moved first).
    assert.match(await error.textContent(), /^(The AI adviser has no advice to give here\.|You have no decision to take now: ask when it is your turn\.)$/);
    assert.match(await error.getAttribute("title"), /^FAILED_PRECONDITION: /);
  } else {
    await checkAdvice(page);
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
