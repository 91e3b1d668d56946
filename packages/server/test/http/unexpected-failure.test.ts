// An unexpected failure: a plain 500 with no internals, reported to onError, even when onError throws.
import { createIntake } from "@intake/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { httpsTarget, json, raw, startHarness, type HttpsHarness } from "../support/harness.js";
import { KEYS, SEED } from "../support/seed.js";
import { rethrowingIntake } from "../support/in-process.js";

let harness: HttpsHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("an unexpected failure", () => {
  it("is a plain 500 with no internals, and reported to onError", async () => {
    let explode = false;
    const errors: unknown[] = [];
    const clock = {
      mode: "real" as const,
      now: () => {
        if (explode) throw new Error("clock broke at /secret/path.ts:42");
        return Date.now();
      },
      setTimer: () => ({ id: 0 }),
      clearTimer: () => {},
      pending: () => 0,
    };
    harness = await startHarness({ clock, onError: (e) => errors.push(e) });
    const target = httpsTarget(harness);
    explode = true;
    const response = await raw(target, `/contacts?apiKey=${KEYS.acme}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ phone: "+14155550123" }),
    }).catch((e: unknown) => e);
    explode = false;
    const answered = await json(response as Response);
    expect(answered).toMatchObject({ status: 500, body: { error: { code: "INTERNAL_ERROR", message: "Internal error. Retry later." } } });
    expect((response as Response).headers.get("x-request-id")).toMatch(/^req_/);
    expect(JSON.stringify(answered.body)).not.toMatch(/secret|\.ts|at /);
    expect(errors).toHaveLength(1);
    expect((await harness.admin("GET", "/contacts")).body).toHaveLength(0);
  });

  it("a stored job that fails is removed all the same when onError throws (it is not run again)", async () => {
    const first = createIntake({ seed: SEED, rateLimit: 0 });
    const saved = first.snapshot();
    await first.close();
    (saved.records.job as unknown[]).push({
      id: "job_unknown",
      kind: "no-such-kind",
      runAt: null,
      key: null,
      payload: "{}",
      createdAt: saved.clock.now,
    });
    const errors: unknown[] = [];
    const console_ = vi.spyOn(console, "error").mockImplementation(() => {});
    const second = createIntake({
      snapshot: saved,
      rateLimit: 0,
      onError: (e) => {
        errors.push(e);
        throw e;
      },
    });
    try {
      await second.admin.settle();
      expect(errors.map((e) => (e as Error).message)).toEqual(["No handler for no-such-kind jobs"]);
      expect(console_.mock.calls[0]![0]).toBe("intake: onError threw");
      expect(await second.admin.jobs()).toEqual([]);
    } finally {
      console_.mockRestore();
      await second.close();
    }
  });

  it("is answered all the same when onError throws (the throw goes to the console)", async () => {
    let explode = false;
    const clock = {
      mode: "real" as const,
      now: () => (explode ? fail() : Date.now()),
      setTimer: () => ({ id: 0 }),
      clearTimer: () => {},
      pending: () => 0,
    };
    const fail = (): never => {
      throw new Error("clock broke");
    };
    const { intake, errors, console_ } = rethrowingIntake({ clock });
    try {
      explode = true;
      const response = await intake.fetch(new Request(`https://intake.test/v1/contacts?apiKey=${KEYS.acme}&email=a%40example.com`));
      explode = false;
      expect(response.status).toBe(500);
      expect(errors).toHaveLength(1);
      expect(console_.mock.calls[0]![0]).toBe("intake: onError threw");
    } finally {
      console_.mockRestore();
      await intake.close();
    }
  });
});
