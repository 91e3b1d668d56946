// The scheduler on its own, through its public methods, on a virtual clock: the order jobs run
// in, their typed payloads, and a job whose kind has no handler.
import { describe, expect, expectTypeOf, it } from "vitest";
import { UNBOUNDED } from "../../src/domain/capacity.js";
import { createDomain } from "../../src/domain/domain.js";
import { Scheduler } from "../../src/engine/scheduler.js";
import { virtualClock } from "../../src/shared/clock.js";
import { deterministicIds } from "../../src/shared/ids.js";

function setUp() {
  const clock = virtualClock();
  const errors: unknown[] = [];
  const onError = (error: unknown) => errors.push(error);
  const domain = createDomain({
    clock,
    ids: deterministicIds(1),
    onError,
    limits: { maxMediaBytes: 1, maxAccountMediaBytes: 1, idempotencyTtlMs: 1, capacity: UNBOUNDED },
    rules: { allowHttpWebhooks: false, duplicateRechargeWebhooks: false },
  });
  return { clock, errors, scheduler: new Scheduler(domain, onError) };
}

describe("Scheduler", () => {
  it("runs jobs by their time, and jobs due at one time in the order they were added", async () => {
    const { clock, scheduler } = setUp();
    const ran: string[] = [];
    scheduler.on("deliver", ({ deliveryId }) => void ran.push(deliveryId));
    const at = clock.now() + 1_000;
    scheduler.add("deliver", { deliveryId: "later" }, at + 500);
    scheduler.add("deliver", { deliveryId: "first at 1s" }, at);
    scheduler.add("deliver", { deliveryId: "soonest" }, at - 500);
    scheduler.add("deliver", { deliveryId: "second at 1s" }, at);
    scheduler.add("deliver", { deliveryId: "third at 1s" }, at);
    await scheduler.settle();
    expect(ran).toEqual([]);
    await clock.advance(2_000);
    await scheduler.settle();
    expect(ran).toEqual(["soonest", "first at 1s", "second at 1s", "third at 1s", "later"]);
    expect(scheduler.pending()).toEqual([]);
  });

  it("runs a job added for now at once, and keeps a job until it has run", async () => {
    const { clock, scheduler } = setUp();
    const ran: string[] = [];
    scheduler.on("inbound", ({ messageId }) => void ran.push(messageId));
    scheduler.add("inbound", { messageId: "now" });
    scheduler.add("inbound", { messageId: "in a minute" }, clock.now() + 60_000);
    await scheduler.settle();
    expect(ran).toEqual(["now"]);
    expect(scheduler.pending().map((job) => job.kind)).toEqual(["inbound"]);
  });

  it("gives each kind's handler its kind's payload, and refuses another kind's at compile time", async () => {
    const { scheduler } = setUp();
    const payloads: unknown[] = [];
    scheduler.on("follow_up", (payload) => {
      expectTypeOf(payload).toEqualTypeOf<{ campaignId: string; contactId: string; step: number }>();
      payloads.push(payload);
    });
    scheduler.on("deliver", (payload) => void expectTypeOf(payload).toEqualTypeOf<{ deliveryId: string }>());
    scheduler.add("follow_up", { campaignId: "cmp_1", contactId: "con_1", step: 2 });
    // @ts-expect-error a deliver job carries a deliveryId, not a messageId
    expect(() => scheduler.add("deliver", { messageId: "msg_1" }, Number.MAX_SAFE_INTEGER)).not.toThrow();
    // @ts-expect-error no such kind of job
    expect(() => scheduler.on("reminder", () => undefined)).not.toThrow();
    await scheduler.settle();
    expect(payloads).toEqual([{ campaignId: "cmp_1", contactId: "con_1", step: 2 }]);
  });

  it("reports a job of a kind with no handler as an error, and drops it", async () => {
    const { errors, scheduler } = setUp();
    scheduler.add("opening", { campaignId: "cmp_1", contactId: "con_1" });
    await scheduler.settle();
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toBe("Error: No handler for opening jobs");
    expect(scheduler.pending()).toEqual([]);
  });
});
