// Deterministic mode: two servers given the same requests answer byte for byte the same.
import { describe, expect, it } from "vitest";
import { httpsTarget, raw, startHarness } from "../support/harness.js";

describe("deterministic mode", () => {
  it("two servers given the same requests answer byte for byte the same", async () => {
    const transcript = async () => {
      const h = await startHarness({ deterministic: true, seed: { accounts: [{ name: "Det", apiKey: "ik_deterministic_000000001" }] } });
      const out: string[] = [];
      const send = async (path: string, body?: unknown) => {
        const response = await raw(
          httpsTarget(h),
          path,
          body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) },
        );
        const headers = [...response.headers].filter(([name]) => !["connection", "keep-alive", "transfer-encoding"].includes(name));
        out.push(`${response.status} ${JSON.stringify(headers)} ${await response.text()}`);
      };
      const key = "?apiKey=ik_deterministic_000000001";
      await send(`/contacts${key}`, { phone: "+14155550123", firstName: "Ada" });
      await send(`/contacts${key}&phoneNumber=%2B14155550123`);
      await send(`/send_custom_channel_message${key}`, { customData: { fromId: "u1", customChannel: "c", body: "Hi" } });
      await send(`/incoming_custom_channel_message${key}`, { customData: { messageSid: "S1", fromId: "u1", toId: "t", body: "Hello" } });
      await send(`/contacts${key}`, { phone: "12" });
      const accounts = await h.admin("GET", "/accounts");
      out.push(JSON.stringify(accounts.body));
      await h.close();
      return out;
    };
    const first = await transcript();
    const second = await transcript();
    expect(second).toEqual(first);
    expect(first[0]).toMatch(/"ct_000001"/);
    expect(first[0]).toMatch(/2026-01-01T00:00:00\.000Z/);
  });

  it("numbers /v1 requests apart from the admin API's, so a test's set-up does not move them", async () => {
    const ids = async (adminCalls: number) => {
      const h = await startHarness({ deterministic: true, seed: { accounts: [{ name: "Det", apiKey: "ik_deterministic_000000001" }] } });
      const v1 = async () =>
        (await raw(httpsTarget(h), "/contacts?apiKey=ik_deterministic_000000001&email=a%40example.com")).headers.get("x-request-id");
      const first = await v1();
      const admin = [];
      for (let i = 0; i < adminCalls; i++) admin.push((await h.admin("GET", "/accounts")).headers.get("x-request-id"));
      const second = await v1();
      await h.close();
      return { v1: [first, second], admin };
    };
    const quiet = await ids(0);
    const busy = await ids(3);
    expect(busy.v1).toEqual(quiet.v1);
    expect(new Set([...busy.v1, ...busy.admin]).size).toBe(5);
    expect(busy.admin.every((id) => /^req_/.test(String(id)))).toBe(true);
  });
});
