import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createIntake } from "@intake/server";
import { openDataFile } from "@intake/server/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDataFile, type BuiltDataFile, type Message } from "../support/data-file.js";

describe("a data file built for bench:durability", () => {
  let dir: string;
  let built: BuiltDataFile;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "intake-bench-data-file-"));
    built = await buildDataFile(join(dir, "data.db"), 4, 10, 1);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("loads in the server, each contact's conversation in the order it was written", async () => {
    const file = openDataFile(built.path);
    try {
      const intake = createIntake({ snapshot: file.read() });
      const get = async (path: string) =>
        (
          await intake.fetch(new Request(`https://localhost/__admin${path}`, { headers: { authorization: `Bearer ${intake.adminToken}` } }))
        ).json();
      // Messages 1, 5 and 9 of the ten go to the second contact: received, sent, received.
      const { messages } = (await get(`/contacts/${built.sample.contactId}`)) as { messages: Message[] };
      expect(messages).toEqual(built.sample.messages);
      expect(messages.map((m) => [m.id, m.direction, m.source])).toEqual([
        ["msg_bench0000001", "inbound", "api_receive"],
        ["msg_bench0000005", "outbound", "api_send"],
        ["msg_bench0000009", "inbound", "api_receive"],
      ]);
      const all = intake.snapshot().records as unknown as { contact: unknown[]; message: Message[] };
      expect(all.contact).toHaveLength(4);
      expect(all.message).toHaveLength(10);
      // Dated in the order they were made, after the contacts were.
      const dates = all.message.map((m) => m.createdAt);
      expect([...dates].sort()).toEqual(dates);
      await intake.close();
    } finally {
      file.close();
    }
  });

  it("holds messages as the server stores them: each field of the admin contract's Message", () => {
    const [received, sent] = built.sample.messages;
    expect(received).toMatchObject({
      direction: "inbound",
      channel: "custom",
      fromId: "user-1",
      toId: "acme",
      status: "received",
      botOutcome: "no_campaign",
      contactId: "ct_b1",
    });
    expect(received!.messageSid).toMatch(/^SM[0-9a-f]{32}$/);
    expect(sent).toMatchObject({
      direction: "outbound",
      channel: "acme",
      fromId: null,
      toId: "user-1",
      status: "sent",
      messageSid: null,
      botOutcome: null,
      contactId: "ct_b1",
    });
    expect(Object.keys(received!).sort()).toEqual(Object.keys(sent!).sort());
    expect(Object.keys(received!)).toHaveLength(20);
  });
});
