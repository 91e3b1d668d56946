/**
 * `startIntakeServer` as a test suite's global set-up starts it, in a plain node script: the seed
 * file's state, on 127.0.0.1:<port>. Writes its listening line (as the CLI's, for the admin URL and
 * token) and serves until SIGTERM. `node testing-peer.mjs <port> <seed.json>`
 */
import { readFileSync } from "node:fs";
import { startIntakeServer } from "@intake/server/testing";

const [port, seedFile] = process.argv.slice(2);
const intake = await startIntakeServer({ port: Number(port), host: "127.0.0.1", seed: JSON.parse(readFileSync(seedFile, "utf8")) });
const { baseUrl, adminUrl, adminToken } = intake.connection;
process.stdout.write(`${JSON.stringify({ event: "listening", baseUrl, adminUrl, adminToken })}\n`);
process.on("SIGTERM", () => void intake.stop().then(() => process.exit(0)));
