#!/usr/bin/env node
/**
 * npm run deploy -w @intake/worker [-- wrangler deploy's own options]: builds what the Worker
 * serves if needed (the dashboard's files), runs `wrangler deploy`, and makes sure the Worker has
 * an operator token: OPERATOR_TOKEN from the environment if set, else the one it has, else a new
 * one, printed once. Needs a Cloudflare login (`npx wrangler login`, or CLOUDFLARE_API_TOKEN).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const here = fileURLToPath(new URL("../", import.meta.url));
const wrangler = (args, options = {}) =>
  spawnSync("npx", ["wrangler", ...args], { cwd: here, encoding: "utf8", stdio: ["pipe", "pipe", "inherit"], ...options });

execFileSync(process.execPath, ["scripts/build-if-changed.mjs"], { cwd: root, stdio: "inherit" });

const deployed = spawnSync("npx", ["wrangler", "deploy", ...process.argv.slice(2)], { cwd: here, stdio: "inherit" });
if (deployed.status !== 0) process.exit(deployed.status ?? 1);

const listed = wrangler(["secret", "list", "--format", "json"]);
// Not knowing whether it has one, a new token would silently replace the one its operators hold.
if (listed.status !== 0 && !process.env.OPERATOR_TOKEN) {
  process.stderr.write(
    "Deployed, but its secrets could not be listed (above): set the operator token yourself, npx wrangler secret put OPERATOR_TOKEN, or deploy again with OPERATOR_TOKEN=...\n",
  );
  process.exit(1);
}
const has = listed.status === 0 && JSON.parse(listed.stdout || "[]").some((secret) => secret.name === "OPERATOR_TOKEN");
if (process.env.OPERATOR_TOKEN || !has) {
  const token = process.env.OPERATOR_TOKEN || `op_${randomBytes(24).toString("base64url")}`;
  const put = wrangler(["secret", "put", "OPERATOR_TOKEN"], { input: token });
  if (put.status !== 0) process.exit(put.status ?? 1);
  if (!process.env.OPERATOR_TOKEN) {
    process.stdout.write(
      `\nThe operator token (shown once; keep it, or set another with OPERATOR_TOKEN=... npm run deploy):\n  ${token}\n`,
    );
  }
}
process.stdout.write(
  "\nCreate a sandbox (docs/workers.md):\n  curl -X POST 'https://<your worker>/__operator/sandboxes?demo&name=team' -H \"authorization: Bearer $OPERATOR_TOKEN\"\n",
);
