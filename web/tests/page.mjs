// What the browser test files share: a page in a fresh browser context
// that records its console errors, a seeded random generator for
// repeatable clicks, and the wait for our open decision (or the end).
// Not a test file: node --test skips it.

/** How long any wait may take before it counts as a hang. */
export const WAIT = { timeout: 120_000 };

/** A page in a fresh context (its own localStorage) of `browser`, at
 * `url`, laptop-sized unless told, that records console errors and
 * uncaught exceptions (and runs `init` in every document first, when
 * given); it waits for the lobby's form. */
export async function openPageOf(browser, url, viewport = { width: 1366, height: 768 }, init = undefined) {
  const context = await browser.newContext({ viewport });
  if (init) await context.addInitScript(init);
  const page = await context.newPage();
  page.errors = [];
  page.consoleLines = [];
  page.on("console", (m) => {
    page.consoleLines.push(`${m.type()}: ${m.text()}`);
    if (m.type() === "error") page.errors.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (e) => page.errors.push(`pageerror: ${e.message}`));
  await page.goto(url);
  await page.locator("#create-game").waitFor(WAIT);
  return page;
}

/** A small seeded random generator, so that a run's clicks are repeatable. */
export function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Waits until the page shows our decision with its options open (returns
 * its seq) or the end screen (returns null). A hung run says where it
 * hung: the decision panel, the status line and the last console lines. */
export async function ready(page) {
  const h = await page.waitForFunction(() => {
    if (document.querySelector("#outcome:not([hidden])")) return "over";
    const d = document.querySelector("#decision");
    if (d && d.dataset.mine === "1" && d.dataset.pending === "0" && d.dataset.armed === "1" && d.querySelector("button.option")) return d.dataset.seq;
    return false;
  }, undefined, WAIT).catch(async (e) => {
    const info = await page.evaluate(() => {
      const d = document.querySelector("#decision");
      const st = document.querySelector("#status");
      return JSON.stringify({ decision: { ...d?.dataset }, heading: d?.querySelector("h2")?.textContent, options: d?.querySelectorAll("button.option").length, status: st?.textContent, detail: st?.title, info: document.querySelector(".table-info")?.textContent });
    }).catch(() => "(page gone)");
    console.log(`# stuck: ${info}\n# ${page.consoleLines.slice(-10).join("\n# ")}`);
    throw e;
  });
  const v = await h.jsonValue();
  return v === "over" ? null : v;
}
