// Every example's README starts with `npm run demo -w <name>`: run each exactly so and check it
// did what it says, and left no temporary folder behind.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const demos: Array<[string, RegExp[]]> = [
  [
    "@intake/example-client-quickstart",
    [/^bearer: contact ct_\w+ \(Ada\), added to the list$/m, /^header: 500 credits granted to sub_client_one, balance 542$/m],
  ],
  [
    "@intake/example-funnel-automation",
    [
      /^First submission: contact (ct_\w+) created, added to the list\.$/m,
      /^Same lead again: {2}contact ct_\w+ found, already in the list\.$/m,
      /opening on messaging_app \(sent\): Hi Grace/,
    ],
  ],
  [
    "@intake/example-funnel-backend",
    [/^Consent recorded; the lead goes to Intake at \S+\.$/m, /^Sent after the delay: contact ct_\w+\.$/m, /opening \(sent\): Hi Linus/],
  ],
  [
    "@intake/example-custom-channel-bridge",
    [/^Bridge → Intake: 200 \{"messageId":"msg_\w+"\}$/m, /^user_42 receives: "Memberships start at 29 dollars a month/m],
  ],
  [
    "@intake/example-model-funnel",
    [
      /^Replayed with model \S+ from model-replies\.json: no endpoint, no key\.$/m,
      /^ {2}\[model \S+: replied in .+; replayed\]\nFit Club \(bot\): ./m,
      /^Alert to the team: ./m,
    ],
  ],
  [
    "@intake/example-agency-auto-recharge",
    [/: delivered, answered 200\n.*_dup2 .*: delivered, answered 200$/m, /^Payments taken: 1; Client One now has 507 credits\.$/m],
  ],
];

describe("the examples' demo commands", () => {
  it.concurrent.each(demos)(
    "npm run demo -w %s",
    async (workspace, expected) => {
      // A temporary folder of the demo's alone, to see what it leaves there; tsx keeps its cache there
      // (on purpose), so the usual one is linked in, warm, and not counted.
      const temporary = mkdtempSync(join(tmpdir(), "intake-demo-tmp-"));
      const tsxCache = `tsx-${process.getuid?.() ?? ""}`;
      if (existsSync(join(tmpdir(), tsxCache))) symlinkSync(join(tmpdir(), tsxCache), join(temporary, tsxCache));
      try {
        const { stdout } = await promisify(execFile)("npm", ["run", "demo", "--silent", "-w", workspace], {
          timeout: 80_000,
          env: { ...process.env, TMPDIR: temporary },
        });
        for (const pattern of expected) expect(stdout).toMatch(pattern);
        expect(readdirSync(temporary).filter((name) => !name.startsWith("tsx-"))).toEqual([]);
      } finally {
        rmSync(temporary, { recursive: true, force: true });
      }
    },
    90_000,
  );
});
