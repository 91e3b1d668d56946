// The public Intake: what its users call, nothing the adapters use (issue 51, item 4).
import { createIntake } from "@intake/server";
import * as adminClientEntry from "@intake/server/admin-client";
import * as connectEntry from "@intake/server/connect";
import { internals } from "@intake/server/hosting";
import * as rootEntry from "@intake/server";
import { persist, serve } from "@intake/server/node";
import { describe, expect, it } from "vitest";

describe("the Intake createIntake returns", () => {
  it("has only what its users call; the adapters' parts are reached through internals(intake)", async () => {
    const intake = createIntake();
    try {
      expect(Object.keys(intake).sort()).toEqual(["admin", "adminToken", "clock", "close", "events", "fetch", "snapshot", "subscribe"]);
      expect(Object.keys(internals(intake)).sort()).toEqual([
        "clock",
        "events",
        "failed",
        "handle",
        "holdAnswers",
        "idState",
        "reportError",
        "resume",
        "revert",
        "serveDashboard",
        "snapshot",
      ]);
      const answer = await internals(intake).handle({
        method: "GET",
        url: new URL("https://api.intake.test/v1/openapi.json"),
        headers: { get: () => null },
        bytes: async () => new Uint8Array(),
      });
      expect(answer.status).toBe(200);
    } finally {
      await intake.close();
    }
  });

  it("serve and persist refuse a copy of an Intake, which has no adapters' parts", async () => {
    const intake = createIntake();
    try {
      const copy = { ...intake };
      expect(() => internals(copy)).toThrow("Expected an Intake made by createIntake");
      await expect(serve(copy)).rejects.toThrow(TypeError);
      expect(() => persist(copy, {} as Parameters<typeof persist>[1])).toThrow(TypeError);
    } finally {
      await intake.close();
    }
  });
});

describe("the admin client's exports", () => {
  it("are the same from @intake/server/admin-client, the root and /connect", () => {
    const names = Object.keys(adminClientEntry).sort();
    expect(names).toEqual(["AdminApiError", "DeliveryWaitError", "createAdminClient", "unwrap"]);
    for (const entry of [rootEntry, connectEntry] as Record<string, unknown>[]) {
      for (const name of names) expect(entry[name], name).toBe((adminClientEntry as Record<string, unknown>)[name]);
    }
  });
});
