// The backend as a service (`npm start`): LEAD_DELAY_SECONDS shortens the 15-minute wait, so a
// person can watch a lead reach the campaign.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startIntakeServer, type IntakeTestServer } from "@intake/server/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const KEY = "ik_example_funnel_backend_main";
const MAIN = fileURLToPath(new URL("../src/main.ts", import.meta.url));
const NODE_ARGS = ["--import", "tsx", "--conditions=@intake/source", MAIN];
let server: IntakeTestServer;
let folder: string;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), "intake-backend-main-"));
  server = await startIntakeServer({
    seed: {
      accounts: [
        {
          name: "Acme Fitness",
          apiKey: KEY,
          credits: 10,
          campaigns: [
            {
              id: "cmp_spring",
              name: "Spring",
              state: "Live",
              triggerOnNewListContacts: true,
              openingTemplate: { body: "Hi {{firstName}}!", approval: "approved" },
            },
          ],
          lists: [{ id: "lst_spring", name: "Spring leads", campaignId: "cmp_spring" }],
        },
      ],
    },
  });
});
afterAll(async () => {
  await server.stop();
  rmSync(folder, { recursive: true, force: true });
});

const env = (extra: Record<string, string>) => ({
  ...process.env,
  INTAKE_BASE_URL: server.baseUrl,
  INTAKE_API_KEY: KEY,
  INTAKE_LIST_ID: "lst_spring",
  NODE_EXTRA_CA_CERTS: server.certificatePath,
  CONSENT_LOG: join(folder, "consent.jsonl"),
  PORT: "0",
  ...extra,
});

describe("the backend service", () => {
  it("sends a lead after LEAD_DELAY_SECONDS, not 15 minutes", { timeout: 60_000 }, async () => {
    const child = spawn(process.execPath, NODE_ARGS, { env: env({ LEAD_DELAY_SECONDS: "1" }), stdio: ["ignore", "pipe", "pipe"] });
    try {
      const lines: string[] = [];
      let wake: () => void = () => {};
      let buffered = "";
      child.stdout.on("data", (chunk: Buffer) => {
        buffered += chunk;
        const parts = buffered.split("\n");
        buffered = parts.pop()!;
        lines.push(...parts);
        wake();
      });
      const line = async (index: number) => {
        while (lines.length <= index) await new Promise<void>((resolve) => (wake = resolve));
        return lines[index]!;
      };
      const banner = await line(0);
      expect(banner).toMatch(/^POST http:\/\/127\.0\.0\.1:\d+\/leads \(leads go to Intake 1 s after they consent\)$/);
      const submitted = Date.now();
      const answer = await fetch(banner.split(" ")[1]!, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ phone: "+14155550177", firstName: "Linus", consent: true, consentText: "I agree." }),
      });
      expect(answer.status).toBe(202);
      const result = JSON.parse(await line(1));
      expect(Date.now() - submitted).toBeGreaterThanOrEqual(1000);
      expect(result).toMatchObject({ phone: "+14155550177", outcome: "added_to_funnel" });
      expect((await server.admin.contact(result.contactId)).listIds).toEqual(["lst_spring"]);
    } finally {
      child.kill();
    }
  });

  it("refuses a LEAD_DELAY_SECONDS that is not a number of seconds", { timeout: 60_000 }, () => {
    for (const delay of ["soon", "-5", ""]) {
      const run = spawnSync(process.execPath, NODE_ARGS, { env: env({ LEAD_DELAY_SECONDS: delay }), encoding: "utf8", timeout: 30_000 });
      expect(run.status, delay).toBe(2);
      expect(run.stderr, delay).toContain(
        `LEAD_DELAY_SECONDS is how long to wait before sending a lead, in seconds (got ${JSON.stringify(delay)}).`,
      );
    }
  });
});
