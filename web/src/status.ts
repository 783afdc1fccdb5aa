// The status line: one line at the top of the page saying what is going
// on, and every error the server returned (with its gRPC message).

let line: HTMLElement | null = null;

export type StatusKind = "info" | "ok" | "error";

export function mountStatus(el: HTMLElement): void {
  line = el;
}

export function setStatus(text: string, kind: StatusKind = "info"): void {
  if (!line) return;
  line.textContent = text;
  line.className = `status ${kind}`;
  line.setAttribute("role", kind === "error" ? "alert" : "status");
}
