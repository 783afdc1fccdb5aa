// Starts and stops a real xodus-server for the tests: the debug binary
// from $XODUS_BIN_DIR (default target/debug), a temporary data directory,
// a free port (or the one it had, to restart it on the same address); and
// an AI daemon (`xodus-ai --fill`) on it, which also serves hints.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = new URL("../../../", import.meta.url).pathname;
const bin = process.env.XODUS_BIN_DIR ?? join(root, "target/debug");

export class Server {
  readonly dataDir = mkdtempSync(join(tmpdir(), "xodus-ts-client-"));
  private proc?: ChildProcess;
  private port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts the server (on the port it had, after a stop) and waits until it listens. */
  async start(): Promise<void> {
    const proc = spawn(join(bin, "xodus-server"), ["--listen", `127.0.0.1:${this.port}`, "--data-dir", this.dataDir], {
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, RUST_LOG: process.env.RUST_LOG ?? "warn" },
    });
    this.proc = proc;
    const port = await new Promise<number>((resolve, reject) => {
      let out = "";
      proc.once("exit", (code) => reject(new Error(`xodus-server exited (${code}) before listening`)));
      proc.stdout?.on("data", (d: Buffer) => {
        out += d.toString();
        const m = /listening on 127\.0\.0\.1:(\d+)/.exec(out);
        if (m) resolve(Number(m[1]));
      });
    });
    this.port = port;
  }

  /** Stops the server and waits for its exit. */
  async stop(): Promise<void> {
    const proc = this.proc;
    if (!proc || proc.exitCode !== null) return;
    const exited = new Promise((r) => proc.once("exit", r));
    proc.kill("SIGTERM");
    await exited;
  }

  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/** An `xodus-ai --fill` daemon on a server (heuristic policy, 50 ms a
 * decision): it plays the seats open to AI agents and serves hints. */
export class Agent {
  private proc?: ChildProcess;

  constructor(private url: string) {}

  /** Starts the daemon (it says nothing when it is ready: callers wait
   * for what they need of it). */
  start(): void {
    this.proc = spawn(join(bin, "xodus-ai"), ["--server", this.url, "--fill", "--policy", "heuristic", "--think-ms", "50"], {
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, RUST_LOG: process.env.RUST_LOG ?? "warn" },
    });
  }

  /** Stops the daemon and waits for its exit. */
  async stop(): Promise<void> {
    const proc = this.proc;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((r) => proc.once("exit", r));
    proc.kill("SIGTERM");
    await exited;
  }
}
