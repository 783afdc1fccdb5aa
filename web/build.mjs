// Bundles src/main.ts into dist/app.js with esbuild and copies the static
// files (index.html, style.css) beside it. `npm run build` runs the code
// generation and the type check first.
import { build } from "esbuild";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";

const out = "dist";
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
await build({
  entryPoints: ["src/main.ts"],
  bundle: true,
  format: "esm",
  target: "es2022",
  minify: true,
  sourcemap: true,
  outfile: `${out}/app.js`,
  logLevel: "warning",
});
for (const f of ["index.html", "style.css"]) copyFileSync(`static/${f}`, `${out}/${f}`);
console.log(`built ${out}/ (index.html, app.js, style.css)`);
