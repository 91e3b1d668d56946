// A listener on the domain events that fails is reported and fails no request.
import { afterEach, describe, expect, it } from "vitest";
import { client, httpsTarget, startHarness, type HttpsHarness } from "../support/harness.js";
import { KEYS } from "../support/seed.js";

let harness: HttpsHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("a listener on the domain events that fails", () => {
  it("is reported to onError and does not fail the request that caused it", async () => {
    const errors: unknown[] = [];
    harness = await startHarness({ onError: (e) => errors.push(e) });
    harness.intake.events.on(["message.received"], () => {
      throw new Error("listener broke");
    });
    const acme = client(httpsTarget(harness), "query", KEYS.acme);
    await expect(acme.messages.receive({ customData: { messageSid: "S1", fromId: "u", toId: "t", body: "x" } })).resolves.toMatchObject({
      success: true,
    });
    expect(errors).toEqual([expect.objectContaining({ message: "listener broke" })]);
  });
});
