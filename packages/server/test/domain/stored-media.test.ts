// The media an account's stored messages may hold: a limit per message and a total per account,
// counted from the messages stored, so a restart (a snapshot loaded, a data file reopened) counts
// the same.
import { createIntake, type Intake, type IntakeOptions } from "@intake/server";
import { afterEach, describe, expect, it } from "vitest";
import { KEYS, SEED } from "../support/seed.js";

const ADMIN_TOKEN = "adm_stored_media_0123456789";
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
/** A PNG (its signature is what the type is sniffed from) of exactly `size` bytes, as a data URL. */
const png = (size: number) => `data:image/png;base64,${Buffer.concat([PNG, Buffer.alloc(size - PNG.length)]).toString("base64")}`;

const started: Intake[] = [];
afterEach(async () => {
  while (started.length) await started.pop()!.close();
});
function start(options: IntakeOptions) {
  const intake = createIntake({ seed: SEED, adminToken: ADMIN_TOKEN, onError: (error) => expect.fail(String(error)), ...options });
  started.push(intake);
  return intake;
}

async function receive(intake: Intake, sid: string, mediaUrl: string | null, key = KEYS.acme) {
  const customData = {
    messageSid: sid,
    fromId: "user-1",
    toId: "support",
    body: "A file",
    mediaUrl,
    mediaContentType: mediaUrl ? "image/png" : null,
  };
  const response = await intake.fetch(
    new Request(`https://intake.test/v1/incoming_custom_channel_message?apiKey=${key}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ customData }),
    }),
  );
  return { status: response.status, body: (await response.json()) as { error?: string; success?: boolean } };
}

async function admin(intake: Intake, method: string, path: string, body?: unknown) {
  const response = await intake.fetch(
    new Request(`https://intake.test/__admin${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  return { status: response.status, body: (await response.json()) as any };
}

const FULL =
  "This account's messages already hold 2000 bytes (2 KiB) of media; the file in customData.mediaUrl, 1000 bytes, " +
  "would take them past the per-account media limit of 2500 bytes (2.4 KiB). Send it as a public https:// URL (stored as given, not counted), " +
  "or have the server's state reset or its limit raised (--max-account-media).";

describe("media per message", () => {
  it("is maxMediaBytes: a larger file is 400 naming the per-message limit and its size, and nothing is stored", async () => {
    const intake = start({ maxMediaBytes: 1000 });
    expect(await receive(intake, "S-1", png(1001))).toEqual({
      status: 400,
      body: {
        error:
          "The file in customData.mediaUrl is 1001 bytes; the per-message media limit is 1000 bytes. Send a smaller file, or a public https:// URL to it.",
      },
    });
    expect((await admin(intake, "GET", "/messages")).body).toHaveLength(0);
    expect(await receive(intake, "S-2", png(1000))).toMatchObject({ status: 200, body: { success: true } });
  });
});

describe("media per account", () => {
  const limits = { maxMediaBytes: 1000, maxAccountMediaBytes: 2500 };

  it("counts the files its stored messages hold: past maxAccountMediaBytes is 413 naming the limit, what is held and the file", async () => {
    const intake = start(limits);
    expect((await receive(intake, "S-1", png(1000))).status).toBe(200);
    expect((await receive(intake, "S-2", png(1000))).status).toBe(200);
    expect(await receive(intake, "S-3", png(1000))).toEqual({ status: 413, body: { error: FULL } });
    expect((await admin(intake, "GET", "/messages?accountId=acc_acme")).body).toHaveLength(2);
    const journal = (await admin(intake, "GET", "/journal?operationId=receiveCustomChannelMessage")).body as Array<{
      status: number;
      errorCode: string;
    }>;
    expect(journal.at(-1)).toMatchObject({ status: 413, errorCode: "MEDIA_STORAGE_FULL" });
    // What still fits is taken, to the byte; a public URL takes nothing; another account has its own.
    expect((await receive(intake, "S-4", png(500))).status).toBe(200);
    expect((await receive(intake, "S-5", png(PNG.length))).status).toBe(413);
    expect((await receive(intake, "S-6", "https://files.example.com/invoice.png")).status).toBe(200);
    expect((await receive(intake, "S-7", null)).status).toBe(200);
    expect((await receive(intake, "G-1", png(1000), KEYS.globex)).status).toBe(200);
  });

  it("a refused message can be sent again once there is room: its sid was not taken", async () => {
    const intake = start(limits);
    await receive(intake, "S-1", png(1000));
    await receive(intake, "S-2", png(1000));
    expect((await receive(intake, "S-3", png(1000))).status).toBe(413);
    await admin(intake, "POST", "/reset");
    expect(await receive(intake, "S-3", png(1000))).toMatchObject({ status: 200, body: { success: true } });
    expect((await admin(intake, "GET", "/messages")).body).toHaveLength(1);
  });

  it("two messages checked at once cannot both take the last of the room", async () => {
    const intake = start(limits);
    await receive(intake, "S-1", png(1000));
    const answers = await Promise.all(["S-2", "S-3", "S-4"].map((sid) => receive(intake, sid, png(1000))));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 413, 413]);
    expect((await admin(intake, "GET", "/messages")).body).toHaveLength(2);
  });

  it("is counted again from the stored messages after a restart from a snapshot, and after PUT /__admin/snapshot", async () => {
    const before = start(limits);
    await receive(before, "S-1", png(1000));
    await receive(before, "S-2", png(1000));
    const snapshot = (await admin(before, "GET", "/snapshot")).body;

    // What --data-file does at start: the state is loaded from what was saved.
    const restarted = start({ ...limits, snapshot });
    expect(await receive(restarted, "S-3", png(1000))).toEqual({ status: 413, body: { error: FULL } });

    // A restore replaces the count with the restored messages' own, whatever was held before it.
    const restored = start(limits);
    await receive(restored, "R-1", png(1000));
    expect((await admin(restored, "PUT", "/snapshot", snapshot)).status).toBe(200);
    expect(await receive(restored, "S-3", png(1000))).toEqual({ status: 413, body: { error: FULL } });
    await admin(restored, "POST", "/reset");
    expect((await receive(restored, "S-3", png(1000))).status).toBe(200);
  });

  it("defaults to 256 MiB per account", async () => {
    // 51 stored messages of 5 MiB (255 MiB), made by copying one received message in a snapshot:
    // their data URL is one string, so the test holds 7 MiB of base64 rather than 340 MiB.
    const first = start({});
    expect((await receive(first, "S-0", png(5 * 1024 * 1024))).status).toBe(200);
    const snapshot = (await admin(first, "GET", "/snapshot")).body;
    const [message] = snapshot.records.message;
    snapshot.records.message = Array.from({ length: 51 }, (_, i) => ({ ...message, id: `msg_copy${i}`, messageSid: `S-${i}` }));
    const intake = start({ snapshot });
    const refused = await receive(intake, "S-51", png(1024 * 1024 + 1));
    expect(refused.status).toBe(413);
    expect(refused.body.error).toContain("already hold 267386880 bytes (255 MiB) of media");
    expect(refused.body.error).toContain("the per-account media limit of 268435456 bytes (256 MiB)");
    expect((await receive(intake, "S-52", png(1024 * 1024))).status).toBe(200);
  });
});

describe("the largest media file", () => {
  it("is Intake's maxMediaBytes, named in bytes and in a unit people read", async () => {
    const intake = createIntake({ seed: SEED, maxMediaBytes: 10_000 });
    const png = Buffer.concat([
      Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64"),
      Buffer.alloc(12_000),
    ]);
    const customData = {
      messageSid: "S-media",
      fromId: "u",
      toId: "t",
      body: "x",
      mediaUrl: `data:image/png;base64,${png.toString("base64")}`,
      mediaContentType: "image/png",
    };
    const response = await intake.fetch(
      new Request(`https://intake.test/v1/incoming_custom_channel_message?apiKey=${KEYS.acme}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ customData }),
      }),
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/the per-message media limit is 10000 bytes \(9\.8 KiB\)\. /);
    await intake.close();
  });
});
