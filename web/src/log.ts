// The event log: every Event.summary line, newest at the bottom, kept
// scrolled to the end unless the user scrolled up to read.
import { h } from "./dom";

export class LogView {
  readonly el: HTMLElement;
  private list: HTMLOListElement;
  private shown = 0;
  /** Follow new lines until the user scrolls up, again once back at the end. */
  private stick = true;

  constructor() {
    this.list = h("ol", { class: "log-lines", tabindex: 0 });
    this.list.addEventListener("scroll", () => {
      this.stick = this.list.scrollTop + this.list.clientHeight >= this.list.scrollHeight - 4;
    });
    this.el = h("section", { class: "log", "aria-label": "Event log" }, h("h2", undefined, "Log"), this.list);
  }

  update(lines: string[]): void {
    if (lines.length < this.shown) {
      this.list.replaceChildren();
      this.shown = 0;
    }
    const start = Math.max(this.shown, lines.length - 400);
    for (let i = start; i < lines.length; i++) this.list.append(h("li", undefined, lines[i] as string));
    this.shown = lines.length;
    while (this.list.childElementCount > 400) this.list.firstElementChild?.remove();
    if (this.stick) this.list.scrollTop = this.list.scrollHeight;
  }
}
