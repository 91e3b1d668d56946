#!/usr/bin/env node
/**
 * npm run dev -w @intake/worker: the Worker on this machine (`wrangler dev`, workerd) over HTTPS
 * at https://127.0.0.1:8787, its sandboxes kept in .wrangler/state. Its operator token is in
 * .dev.vars (made, and printed, the first time).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { execFileSync, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const here = fileURLToPath(new URL("../", import.meta.url));
const vars = `${here}.dev.vars`;
execFileSync(process.execPath, ["scripts/build-if-changed.mjs"], { cwd: root, stdio: "inherit" });
if (!existsSync(vars) || !/^OPERATOR_TOKEN=/m.test(readFileSync(vars, "utf8"))) {
  writeFileSync(vars, `OPERATOR_TOKEN=op_${randomBytes(24).toString("base64url")}\n`, { mode: 0o600 });
}
const token = /^OPERATOR_TOKEN=(.*)$/m.exec(readFileSync(vars, "utf8"))[1];
process.stdout.write(
  `Operator token (in packages/worker/.dev.vars): ${token}\n` +
    `Create a sandbox: curl -k -X POST 'https://127.0.0.1:8787/__operator/sandboxes?demo&name=dev' -H 'authorization: Bearer ${token}'\n` +
    "(-k: wrangler dev serves a certificate of its own, which curl does not know)\n\n",
);
const dev = spawn(
  "npx",
  ["wrangler", "dev", "--local-protocol", "https", "--ip", "127.0.0.1", "--port", "8787", ...process.argv.slice(2)],
  { cwd: here, stdio: "inherit" },
);
dev.on("exit", (code) => process.exit(code ?? 0));
