// Bundles the tests (tests/*.test.ts, with the package's sources) for Node
// into tests/.build/, leaving the npm packages as imports, so that the
// tests run with `node --test` and no TypeScript loader.
import { build } from "esbuild";
import { readdirSync, rmSync } from "node:fs";

const here = new URL(".", import.meta.url).pathname;
const out = `${here}.build`;
rmSync(out, { recursive: true, force: true });
await build({
  entryPoints: readdirSync(here).filter((f) => f.endsWith(".test.ts")).map((f) => `${here}${f}`),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  outdir: out,
  outExtension: { ".js": ".mjs" },
  logLevel: "warning",
});
