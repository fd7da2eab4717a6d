// Bundles the console into dist/ (console.js, console.css, index.html), which the kith
// binary embeds (crates/kith-server/src/console.rs). `node build.mjs --check` rebuilds
// into a scratch directory and fails if dist/ differs: the committed bundle must be
// what these sources make.
import * as esbuild from "esbuild";
import { mkdtempSync, readFileSync, writeFileSync, copyFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const check = process.argv.includes("--check");
const out = check ? mkdtempSync(join(tmpdir(), "kith-console-")) : "dist";

await esbuild.build({
  entryPoints: { console: "src/main.js" },
  bundle: true,
  minify: true,
  format: "iife",
  target: ["chrome110", "firefox110", "safari16"],
  outdir: out,
  legalComments: "linked",
  logLevel: "warning",
});
copyFileSync("src/index.html", join(out, "index.html"));

if (check) {
  const stale = ["console.js", "console.css", "console.js.LEGAL.txt", "index.html"].filter(
    (f) => !readFileSync(join(out, f)).equals(readFileSync(join("dist", f))),
  );
  rmSync(out, { recursive: true });
  if (stale.length) {
    console.error(`console/dist is stale (${stale.join(", ")}): run npm run build in console/ and commit dist/`);
    process.exit(1);
  }
  console.log("console/dist matches its sources");
} else {
  writeFileSync(join(out, ".gitattributes"), "* -diff\n");
}
