// The decision panel's layout, measured from the element boxes the browser
// laid out (getBoundingClientRect), not from pictures: shared by both
// games' browser tests (browser.test.mjs, legio.test.mjs). Not a test file
// itself (node --test runs *.test.mjs only).
import assert from "node:assert/strict";

/** Measures the decision panel of the page as it is: every option box,
 * brought into view the way the page does it, lies whole inside its panel,
 * inside the options list (the scroll container) and on the screen; no two
 * option boxes overlap; the "more below" line overlaps no option; and the
 * list scrolls when its options do not all fit. Returns the figures and
 * the problems found, in words. */
export function measureDecision(page) {
  return page.evaluate(() => {
    const panel = document.querySelector("#decision");
    const list = panel?.querySelector("ol.options");
    const buttons = list ? [...list.querySelectorAll("button.option")] : [];
    const more = panel?.querySelector("p.more");
    const box = (e) => {
      const b = e.getBoundingClientRect();
      return { top: b.top, bottom: b.bottom, left: b.left, right: b.right };
    };
    const cut = (a, b) => ({ top: Math.max(a.top, b.top), bottom: Math.min(a.bottom, b.bottom), left: Math.max(a.left, b.left), right: Math.min(a.right, b.right) });
    const area = (a) => Math.max(0, a.right - a.left) * Math.max(0, a.bottom - a.top);
    const screen = () => ({ top: 0, left: 0, bottom: innerHeight, right: innerWidth });
    // What shows of an element: its box clipped by every ancestor that
    // clips (overflow other than visible) and by the screen.
    const shown = (e) => {
      let v = box(e);
      for (let p = e.parentElement; p; p = p.parentElement) {
        const cs = getComputedStyle(p);
        if (cs.display !== "contents" && (cs.overflowX !== "visible" || cs.overflowY !== "visible")) v = cut(v, box(p));
      }
      return cut(v, screen());
    };
    // Whole, to a pixel's rounding.
    const whole = (e) => {
      const a = box(e);
      const v = shown(e);
      return v.bottom - v.top >= a.bottom - a.top - 1.5 && v.right - v.left >= a.right - a.left - 1.5;
    };
    const inside = (a, b) => a.top >= b.top - 1 && a.bottom <= b.bottom + 1 && a.left >= b.left - 1 && a.right <= b.right + 1;
    const fmt = (a) => `[${Math.round(a.left)},${Math.round(a.top)} – ${Math.round(a.right)},${Math.round(a.bottom)}]`;
    const problems = [];
    if (!panel || !list) return { options: 0, scrolls: false, overflowY: "", problems: ["no options list in the decision panel"] };
    const overflowY = getComputedStyle(list).overflowY;
    const scrolls = /^(auto|scroll)$/.test(overflowY) && list.scrollHeight > list.clientHeight + 1;
    const fits = buttons.every(whole);
    // No two option boxes overlap (they move together when the list scrolls).
    const boxes = buttons.map(box);
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        if (area(cut(boxes[i], boxes[j])) > 1) problems.push(`options ${i + 1} and ${j + 1} overlap: ${fmt(boxes[i])} ${fmt(boxes[j])}`);
      }
    }
    const hintCheck = (where) => {
      if (!more || more.hidden || !more.getClientRects().length) return;
      const m = box(more);
      buttons.forEach((b, i) => {
        if (area(cut(m, shown(b))) > 1) problems.push(`${where}: the line "${more.textContent}" ${fmt(m)} is drawn over option ${i + 1} ${fmt(shown(b))}`);
      });
    };
    hintCheck("at first");
    // Each option brought into view as the page does for the keyboard's
    // selection (scrollIntoView, nearest): whole inside the panel, the
    // list and the screen.
    const keep = { x: scrollX, y: scrollY, top: list.scrollTop };
    buttons.forEach((b, i) => {
      b.scrollIntoView({ block: "nearest", inline: "nearest" });
      const bb = box(b);
      if (!inside(bb, box(panel))) problems.push(`option ${i + 1} ${fmt(bb)} lies outside its panel ${fmt(box(panel))}`);
      if (!inside(bb, box(list))) problems.push(`option ${i + 1} ${fmt(bb)} lies outside the options list ${fmt(box(list))}`);
      if (!whole(b)) problems.push(`option ${i + 1} ${fmt(bb)} does not show whole once scrolled into view: ${fmt(shown(b))}`);
      hintCheck(`with option ${i + 1} in view`);
    });
    list.scrollTop = keep.top;
    scrollTo(keep.x, keep.y);
    return { options: buttons.length, scrolls, fits, overflowY, listHeight: list.clientHeight, panelBottom: panel.getBoundingClientRect().bottom, vh: innerHeight, problems };
  });
}

/** Asserts the decision panel's layout (see measureDecision): nothing
 * outside its panel, nothing overlapping, and a list that scrolls rather
 * than spill when its options do not fit. */
export async function assertDecisionLayout(page, what) {
  const m = await measureDecision(page);
  assert.deepEqual(m.problems, [], `${what}: ${m.options} options: ${m.problems.slice(0, 6).join("; ")}`);
  assert.ok(/^(auto|scroll)$/.test(m.overflowY), `${what}: the options list is a scroll container (overflow-y ${m.overflowY})`);
  assert.ok(m.fits || m.scrolls, `${what}: options that do not all show make the list scroll`);
  return m;
}

/** Walks the options with the keyboard (End, Home, ArrowDown, ArrowUp):
 * the selected (focused) option always shows whole, inside the options
 * list and on the screen. */
export async function assertSelectionShows(page, what) {
  const n = await page.locator("#decision button.option").count();
  const check = async (key, index) => {
    await page.keyboard.press(key);
    const m = await page.evaluate(() => {
      const b = document.activeElement;
      const list = document.querySelector("#decision ol.options");
      if (!b?.matches?.("#decision button.option") || !list) return { index: -1 };
      const r = b.getBoundingClientRect();
      const l = list.getBoundingClientRect();
      return { index: Number(b.dataset.index), top: r.top, bottom: r.bottom, listTop: l.top, listBottom: l.bottom, vh: innerHeight };
    });
    assert.equal(m.index, index, `${what}: ${key} selects option ${index + 1}`);
    assert.ok(m.top >= m.listTop - 1 && m.bottom <= m.listBottom + 1, `${what}: option ${index + 1}, selected with ${key}, shows whole in the list: ${JSON.stringify(m)}`);
    assert.ok(m.top >= -1 && m.bottom <= m.vh + 1, `${what}: option ${index + 1}, selected with ${key}, shows on the screen: ${JSON.stringify(m)}`);
  };
  await page.locator("#decision button.option").first().focus();
  await check("End", n - 1);
  await check("Home", 0);
  for (let i = 1; i < n; i++) await check("ArrowDown", i);
  await check("ArrowDown", 0);
  await check("ArrowUp", n - 1);
}
