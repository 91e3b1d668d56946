// The virtual clock moved through the admin API: it does not go back.
import { afterEach, describe, expect, it } from "vitest";
import { startHarness, type HttpsHarness } from "../support/harness.js";

let harness: HttpsHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("the virtual clock", () => {
  it("does not go back: a negative ms is refused by the contract, an earlier `to` is a conflict, and the time stays", async () => {
    harness = await startHarness({ clock: "virtual" });
    const before = (await harness.admin("GET", "/clock")).body.now;
    const negative = await harness.admin("POST", "/clock/advance", { ms: -1 });
    expect(negative.status).toBe(400);
    const earlier = await harness.admin("POST", "/clock/advance", { to: "2000-01-01T00:00:00.000Z" });
    expect(earlier).toMatchObject({
      status: 409,
      body: {
        error: { message: `The clock is at ${before}; it does not go back, except to its start with a reset (POST /__admin/reset).` },
      },
    });
    const both = await harness.admin("POST", "/clock/advance", { ms: 1, to: before });
    expect(both).toMatchObject({ status: 400, body: { error: { code: "VALIDATION_ERROR", message: "Give ms or to, not both." } } });
    const neither = await harness.admin("POST", "/clock/advance", {});
    expect(neither).toMatchObject({
      status: 400,
      body: { error: { code: "VALIDATION_ERROR", message: "Give ms (how far to move the clock) or to (the time to move it to)." } },
    });
    expect((await harness.admin("GET", "/clock")).body.now).toBe(before);
    expect((await harness.admin("POST", "/clock/advance", { ms: 1000 })).body.now).toBe(new Date(Date.parse(before) + 1000).toISOString());
  });
});
