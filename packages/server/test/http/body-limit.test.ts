// The largest request body: Intake's maxBodyBytes, over HTTPS too.
import { afterEach, describe, expect, it } from "vitest";
import { httpsTarget, json, raw, startHarness, type HttpsHarness } from "../support/harness.js";
import { KEYS } from "../support/seed.js";

let harness: HttpsHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("the largest request body", () => {
  it("is the Intake's maxBodyBytes over HTTPS too: the node adapter reads no further than the core asks", async () => {
    harness = await startHarness({ maxBodyBytes: 100 });
    const body = JSON.stringify({ phone: "+14155550100", firstName: "x".repeat(150) });
    const response = await json(
      await raw(httpsTarget(harness), `/contacts?apiKey=${KEYS.acme}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      }),
    );
    expect(response.status).toBe(400);
    expect(response.body.error).toEqual({ code: "PAYLOAD_TOO_LARGE", message: "The request body is larger than 100 bytes." });
    expect((await harness.admin("GET", "/contacts")).body).toHaveLength(0);
  });
});
