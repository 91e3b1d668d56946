// workerd killed (SIGKILL, its whole process group) while a sandbox takes concurrent creates, then
// started again on the same persistence folder: every create that was answered is there, and work
// that fell due while it was down (a follow-up) is done once, woken by the object's alarm.
import { createIntakeClient } from "@intake/client";
import { createAdminClient, type Seed } from "@intake/server";
import { afterEach, expect, it } from "vitest";
import { createSandbox, startWorker, type LocalWorker } from "./support/worker.js";

const running: LocalWorker[] = [];
afterEach(async () => {
  while (running.length) await running.pop()!.stop();
});

async function started(persist?: string, port?: number) {
  const worker = await startWorker(persist === undefined ? {} : { persist, port });
  running.push(worker);
  return worker;
}

const FOLLOW_UP_HOURS = 0.002; // 7.2 s of silence

const SEED: Seed = {
  accounts: [
    {
      id: "acc_a",
      name: "A",
      credits: 10_000,
      campaigns: [
        {
          id: "cmp_a",
          name: "A",
          state: "Live",
          openingTemplate: { body: "Hi {{firstName}}!", approval: "approved" },
          triggerOnNewListContacts: true,
          followUps: { enabled: true, delaysHours: [FOLLOW_UP_HOURS], cycles: 1, messagesPerCycle: 1, messages: ["Still there?"] },
        },
      ],
      lists: [{ id: "lst_a", name: "Leads", campaignId: "cmp_a" }],
    },
  ],
};

it("loses no answered create, and sends a follow-up that fell due while it was down once, after the restart", async () => {
  const first = await started();
  const sandbox = await createSandbox(first, { name: "crash", seed: SEED, rateLimit: 0 });
  const api = (worker: LocalWorker) =>
    createIntakeClient({
      auth: "query",
      apiKey: sandbox.accounts[0]!.apiKey,
      baseUrl: sandbox.baseUrl,
      fetch: (r) => worker.fetch(r),
      maxRetries: 0,
    });
  const admin = (worker: LocalWorker) =>
    createAdminClient({ adminUrl: sandbox.adminUrl, token: sandbox.adminToken, fetch: (r) => worker.fetch(r) });

  // A lead whose follow-up falls due while workerd is down: the object's alarm is set for it.
  const lead = await api(first).contacts.create({ phone: "+14155550100", firstName: "Ada" });
  const joinedAt = Date.now();
  await api(first).lists.addContact("lst_a", { contactId: lead.id });
  const wake = Date.parse((await first.operator("GET", "/crash")).body.nextWake);
  expect(wake).toBeGreaterThanOrEqual(joinedAt + FOLLOW_UP_HOURS * 3600_000 - 1000);
  expect(wake).toBeLessThanOrEqual(Date.now() + FOLLOW_UP_HOURS * 3600_000 + 1000);

  // Concurrent creates, killed midway.
  const answered: string[] = [];
  let next = 0;
  const total = 400;
  const creating = async () => {
    for (;;) {
      const i = next++;
      if (i >= total) return;
      const phone = `+1415555${String(1000 + i).padStart(4, "0")}`;
      try {
        await api(first).contacts.create({ phone, firstName: `Lead ${i}` });
        answered.push(phone);
      } catch {
        // Cut off by the kill: not answered, so it may or may not be there.
      }
    }
  };
  const load = Promise.all(Array.from({ length: 16 }, creating));
  await expect.poll(() => answered.length, { timeout: 30_000, interval: 5 }).toBeGreaterThanOrEqual(60);
  // Not sent yet: it falls due while workerd is down.
  expect((await admin(first).messages({ contactId: lead.id })).filter((message) => message.source === "follow_up")).toEqual([]);
  await first.crash();
  await load;
  expect(answered.length).toBeLessThan(total);
  await first.stop({ keep: true });
  running.splice(running.indexOf(first), 1);

  // Down past the follow-up's time.
  await new Promise((resolve) => setTimeout(resolve, FOLLOW_UP_HOURS * 3600_000 + 1500));
  const port = Number(new URL(first.origin).port);
  const second = await started(first.persist, port);
  // Its first request wakes it (Cloudflare's alarms also wake an object by themselves; workerd run
  // locally sets a stored alarm again only once the object is loaded), and the follow-up due meanwhile runs.
  await admin(second).settle();
  const followUps = (await admin(second).messages({ contactId: lead.id })).filter((message) => message.source === "follow_up");
  expect(followUps.map((message) => message.body)).toEqual(["Still there?"]);

  const stored = new Set((await admin(second).contacts({ accountId: "acc_a", limit: 1000 })).map((contact) => contact.phone));
  const lost = answered.filter((phone) => !stored.has(phone));
  expect(lost).toEqual([]);

  // Once: a third start does not send it again.
  await second.stop({ keep: true });
  running.splice(running.indexOf(second), 1);
  const third = await started(first.persist, port);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  expect((await admin(third).messages({ contactId: lead.id })).filter((message) => message.source === "follow_up")).toHaveLength(1);
}, 90_000);
