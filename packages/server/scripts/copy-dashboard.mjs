// The end of the server's build: the dashboard's build (@intake/dashboard, a workspace of its own)
// copied into dist/dashboard, where the packed server serves it from. The dashboard is built
// first (the root `npm run build` does it), never from here: it would be a build inside a build.
import { cpSync, existsSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

const from = fileURLToPath(new URL("../../dashboard/dist/", import.meta.url));
const to = fileURLToPath(new URL("../dist/dashboard/", import.meta.url));

if (!existsSync(`${from}index.html`)) {
  console.error(
    "@intake/server: the dashboard is not built, so the server's package would have none.\n" +
      "Run `npm run build -w @intake/dashboard` first, or `npm run build` at the repository's root (it builds every package in order).",
  );
  process.exit(1);
}
rmSync(to, { recursive: true, force: true });
cpSync(from, to, { recursive: true });
