// The status line: one line at the top of the page saying what is going
// on in player words; the technical detail of an error (gRPC code and
// server message) is its tooltip and goes to the console's debug level.

let line: HTMLElement | null = null;

export type StatusKind = "info" | "ok" | "error";

export function mountStatus(el: HTMLElement): void {
  line = el;
}

export function setStatus(text: string, kind: StatusKind = "info", detail?: string): void {
  if (detail) console.debug(`[xodus] ${text} (${detail})`);
  if (!line) return;
  line.textContent = text;
  line.className = `status ${kind}`;
  line.setAttribute("role", kind === "error" ? "alert" : "status");
  if (detail) line.title = detail;
  else line.removeAttribute("title");
}
