import { describe, expect } from "vitest";
import { client, json, limitsOf, mebibytes, raw } from "../support/harness.js";
import { KEYS } from "../support/seed.js";
import { cases, type Register } from "./cases.js";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const PDF = Buffer.from("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n").toString("base64");

export const messages: Register = (target, options) => {
  const { it, direct } = cases(options);
  const acme = () => client(target(), "query", KEYS.acme);
  const admin = (path: string) =>
    target()
      .harness.admin("GET", path)
      .then((r) => r.body);
  const inbound = (customData: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    acme().messages.receive({
      customData: { messageSid: "SM-1", fromId: "user-1", toId: "acme-support", body: "Hello", ...customData },
      ...extra,
    } as never);
  /** The receive endpoint, raw: its errors are { error: string }. */
  const post = async (body: unknown, path = `/incoming_custom_channel_message?apiKey=${KEYS.acme}`) =>
    json(await raw(target(), path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));

  describe("POST /send_custom_channel_message", () => {
    it("records the message and answers success, messageId, contactId and a confirmation", async () => {
      const result = await acme().messages.send({
        customData: {
          fromId: "user-1",
          customChannel: "acme-chat",
          body: "Your demo is booked.",
          firstName: "Ada",
          lastName: "Lovelace",
          email: "ada@example.com",
        },
      });
      expect(result).toEqual({
        success: true,
        messageId: expect.stringMatching(/^msg_/),
        contactId: expect.stringMatching(/^ct_/),
        message: "Message sent on custom channel acme-chat.",
      });
      const stored = await admin(`/messages/${result.messageId}`);
      expect(stored).toMatchObject({
        direction: "outbound",
        channel: "acme-chat",
        body: "Your demo is booked.",
        status: "sent",
        source: "api_send",
        toId: "user-1",
        contactId: result.contactId,
      });
      const contact = await admin(`/contacts/${result.contactId}`);
      expect(contact.contact).toMatchObject({
        fromId: "user-1",
        customChannel: "acme-chat",
        firstName: "Ada",
        lastName: "Lovelace",
        email: "ada@example.com",
      });
    });

    it("sends no reply webhook and charges no credits: the customer's system sent the message itself", async () => {
      // A webhook URL on loopback's discard port: were anything delivered, it would show as an attempt.
      await target().harness.admin("PATCH", "/accounts/acc_acme", { webhookUrl: "http://127.0.0.1:9/hooks" });
      const before = (await admin("/accounts/acc_acme/credits")).balance;
      await acme().messages.send({ customData: { fromId: "user-1", customChannel: "acme-chat", body: "Your demo is booked." } });
      await target().harness.admin("POST", "/settle");
      expect(await admin("/deliveries")).toEqual([]);
      expect((await admin("/accounts/acc_acme/credits")).balance).toBe(before);
    });

    it("the same fromId is the same contact, updated: empty names and email are filled, given ones kept", async () => {
      const first = await acme().messages.send({
        customData: { fromId: "user-1", customChannel: "acme-chat", body: "One", firstName: "Ada" },
      });
      const second = await acme().messages.send({
        customData: {
          fromId: "user-1",
          customChannel: "acme-chat",
          body: "Two",
          firstName: "Changed",
          lastName: "Lovelace",
          email: "ada@example.com",
        },
      });
      expect(second.contactId).toBe(first.contactId);
      expect((await admin(`/contacts/${first.contactId}`)).contact).toMatchObject({
        firstName: "Ada",
        lastName: "Lovelace",
        email: "ada@example.com",
      });
      await expect(acme().contacts.find({ email: "ada@example.com" })).resolves.toMatchObject({ id: first.contactId });
      const other = await acme().messages.send({ customData: { fromId: "user-2", customChannel: "acme-chat", body: "Three" } });
      expect(other.contactId).not.toBe(first.contactId);
    });

    it("a first-seen fromId that is a known phone number or email is that contact, unless it already has a fromId", async () => {
      const lead = await acme().contacts.create({ phone: "+14155550123", firstName: "Ada" });
      const byPhone = await acme().messages.send({
        customData: { fromId: "+14155550123", customChannel: "acme-chat", body: "Your trial is booked." },
      });
      expect(byPhone.contactId).toBe(lead.id);
      expect((await admin(`/contacts/${lead.id}`)).contact).toMatchObject({
        fromId: "+14155550123",
        customChannel: "acme-chat",
        firstName: "Ada",
      });

      const emailOnly = await acme().contacts.create({ email: "grace@example.com" });
      const byEmail = await acme().messages.send({
        customData: { fromId: "grace@example.com", customChannel: "acme-chat", body: "Hello Grace", firstName: "Grace" },
      });
      expect(byEmail.contactId).toBe(emailOnly.id);
      expect((await admin(`/contacts/${emailOnly.id}`)).contact).toMatchObject({ fromId: "grace@example.com", firstName: "Grace" });

      // Ada already answers to her fromId: another spelling of her number is another sender, and her
      // number stays hers alone.
      const other = await acme().messages.send({ customData: { fromId: "+1 415 555 0123", customChannel: "acme-chat", body: "Hi" } });
      expect(other.contactId).not.toBe(lead.id);
      expect((await admin(`/contacts/${other.contactId}`)).contact).toMatchObject({ fromId: "+1 415 555 0123", phone: null });
      expect(await admin("/contacts?accountId=acc_acme")).toHaveLength(3);
    });

    it("an unknown campaignId is 404 CAMPAIGN_NOT_FOUND, and nothing is recorded", async () => {
      await expect(
        acme().messages.send({ customData: { fromId: "user-1", customChannel: "c", body: "Hi", campaignId: "cmp_missing" } }),
      ).rejects.toMatchObject({
        status: 404,
        code: "CAMPAIGN_NOT_FOUND",
      });
      expect(await admin("/messages?accountId=acc_acme")).toHaveLength(0);
      expect(await admin("/contacts?accountId=acc_acme")).toHaveLength(0);
    });

    direct("an empty or whitespace body is 400 saying it cannot be empty", async () => {
      for (const body of ["", "   \n\t"]) {
        await expect(acme().messages.send({ customData: { fromId: "u", customChannel: "c", body } })).rejects.toMatchObject({
          status: 400,
          code: "VALIDATION_ERROR",
          message: "Message body cannot be empty.",
        });
      }
    });

    direct("a body over 4096 characters is 400 BODY_TOO_LONG", async () => {
      await expect(acme().messages.send({ customData: { fromId: "u", customChannel: "c", body: "x".repeat(4097) } })).rejects.toMatchObject(
        {
          code: "BODY_TOO_LONG",
          message: "customData.body is longer than 4096 characters.",
        },
      );
      await expect(
        acme().messages.send({ customData: { fromId: "u", customChannel: "c", body: "x".repeat(4096) } }),
      ).resolves.toMatchObject({ success: true });
    });

    direct("a fromId of only whitespace is 400, and nothing is recorded", async () => {
      await expect(acme().messages.send({ customData: { fromId: "  \t", customChannel: "c", body: "Hi" } })).rejects.toMatchObject({
        status: 400,
        code: "VALIDATION_ERROR",
        message: "customData.fromId must not be empty or only whitespace.",
      });
      expect(await admin("/contacts?accountId=acc_acme")).toHaveLength(0);
    });

    direct("a missing fromId or body is 400 naming the field, and nothing is recorded", async () => {
      for (const [customData, message] of [
        [{ customChannel: "c", body: "Hi" }, "customData.fromId is required."],
        [{ fromId: "u", customChannel: "c" }, "customData.body is required."],
      ] as const) {
        await expect(acme().messages.send({ customData } as never)).rejects.toMatchObject({
          status: 400,
          code: "VALIDATION_ERROR",
          message,
        });
      }
      expect(await admin("/messages?accountId=acc_acme")).toHaveLength(0);
      expect(await admin("/contacts?accountId=acc_acme")).toHaveLength(0);
    });

    it("a campaignId puts the conversation in that campaign: the contact's answer goes to its bot", async () => {
      // The account's default campaign is a Draft, which does not answer; this one does.
      const faqs = [{ question: "How much is a membership?", answer: "Memberships start at 29 dollars a month." }];
      const campaign = (await target().harness.admin("POST", "/campaigns", { accountId: "acc_acme", name: "Spring", state: "Live", faqs }))
        .body;
      const sent = await acme().messages.send({
        customData: { fromId: "user-1", customChannel: "acme-chat", body: "Ask me anything.", campaignId: campaign.id },
      });
      expect(await admin(`/messages/${sent.messageId}`)).toMatchObject({ campaignId: campaign.id });
      const answer = await inbound({ body: "How much is a membership?" });
      await target().harness.admin("POST", "/settle");
      expect(await admin(`/messages/${answer.messageId}`)).toMatchObject({ botOutcome: "replied" });
      const { messages: conversation } = await admin(`/contacts/${sent.contactId}`);
      expect(conversation.at(-1)).toMatchObject({
        source: "bot",
        campaignId: campaign.id,
        body: "Memberships start at 29 dollars a month.",
      });
    });

    direct("customChannel is required", async () => {
      await expect(acme().messages.send({ customData: { fromId: "u", body: "Hi" } } as never)).rejects.toMatchObject({
        message: "customData.customChannel is required.",
      });
    });
  });

  describe("POST /incoming_custom_channel_message", () => {
    it("stores the message with status received by default and answers success and messageId", async () => {
      const result = await inbound({ channel: "acme-chat", firstName: "Ada", email: "ada@example.com" });
      expect(result).toEqual({ success: true, messageId: expect.stringMatching(/^msg_/) });
      const stored = await admin(`/messages/${result.messageId}`);
      expect(stored).toMatchObject({
        direction: "inbound",
        status: "received",
        messageSid: "SM-1",
        fromId: "user-1",
        toId: "acme-support",
        body: "Hello",
        channel: "acme-chat",
        messageType: "text",
        source: "api_receive",
      });
      expect((await admin(`/contacts/${stored.contactId}`)).contact).toMatchObject({
        fromId: "user-1",
        firstName: "Ada",
        email: "ada@example.com",
      });
    });

    it("messageType text and an omitted messageType are both a text message", async () => {
      const explicit = await acme().messages.receive({
        messageType: "text",
        customData: { messageSid: "SM-1", fromId: "u", toId: "t", body: "Hi" },
      });
      const omitted = await acme().messages.receive({ customData: { messageSid: "SM-2", fromId: "u", toId: "t", body: "Hi" } });
      for (const { messageId } of [explicit, omitted])
        expect(await admin(`/messages/${messageId}`)).toMatchObject({ messageType: "text", reactionTo: null });
    });

    direct("a body over 4096 characters is 400 in the string shape, and nothing is stored; 4096 is accepted", async () => {
      expect(await post({ customData: { messageSid: "SM-1", fromId: "u", toId: "t", body: "x".repeat(4097) } })).toMatchObject({
        status: 400,
        body: { error: "customData.body is longer than 4096 characters." },
      });
      expect(await admin("/messages?accountId=acc_acme")).toHaveLength(0);
      await expect(inbound({ body: "x".repeat(4096) })).resolves.toMatchObject({ success: true });
    });

    it("keeps a status that is sent", async () => {
      const result = await inbound({ status: "delivered" });
      expect((await admin(`/messages/${result.messageId}`)).status).toBe("delivered");
    });

    direct("a status is at most 32 characters: 33 is 400, and nothing is stored", async () => {
      expect((await admin(`/messages/${(await inbound({ status: "s".repeat(32) })).messageId}`)).status).toBe("s".repeat(32));
      expect(await post({ customData: { messageSid: "SM-33", fromId: "u", toId: "t", body: "Hi", status: "s".repeat(33) } })).toMatchObject(
        {
          status: 400,
          body: { error: "customData.status must be at most 32 characters." },
        },
      );
      expect(await admin("/messages?accountId=acc_acme")).toHaveLength(1);
    });

    it("a messageSid already processed answers the first messageId with duplicate: true, and nothing is stored twice", async () => {
      const first = await inbound({});
      const again = await inbound({ body: "Hello (resent)" });
      expect(again).toEqual({ success: true, messageId: first.messageId, duplicate: true });
      expect(await admin("/messages?accountId=acc_acme")).toHaveLength(1);
    });

    it("the same messageSid sent many times at once is stored once", async () => {
      const results = await Promise.all(
        Array.from({ length: 10 }, () => inbound({ mediaUrl: `data:image/png;base64,${PNG}`, mediaContentType: "image/png" })),
      );
      expect(new Set(results.map((r) => r.messageId)).size).toBe(1);
      expect(results.filter((r) => r.duplicate)).toHaveLength(9);
      expect(await admin("/messages?accountId=acc_acme")).toHaveLength(1);
      expect(await admin("/contacts?accountId=acc_acme")).toHaveLength(1);
    });

    it("customData.id works as the message id and shares messageSid's namespace; it names no contact", async () => {
      const first = await acme().messages.receive({ customData: { id: "SM-9", fromId: "u", toId: "t", body: "Hi" } });
      const again = await inbound({ messageSid: "SM-9" });
      expect(again).toMatchObject({ messageId: first.messageId, duplicate: true });
      const { contactId } = await admin(`/messages/${first.messageId}`);
      expect(contactId).toMatch(/^ct_/);
      expect((await admin(`/contacts/${contactId}`)).contact).toMatchObject({ fromId: "u" });
    });

    it("the same fromId is always the same contact; a later message fills its empty names and email and replaces none", async () => {
      const first = await inbound({ messageSid: "SM-1", firstName: "Ada" });
      const second = await inbound({ messageSid: "SM-2", firstName: "Changed", lastName: "Lovelace", email: "ada@example.com" });
      const a = await admin(`/messages/${first.messageId}`);
      const b = await admin(`/messages/${second.messageId}`);
      expect(b.contactId).toBe(a.contactId);
      expect((await admin(`/contacts/${a.contactId}`)).contact).toMatchObject({
        firstName: "Ada",
        lastName: "Lovelace",
        email: "ada@example.com",
      });
      // The email it was given finds it through the API.
      await expect(acme().contacts.find({ email: "ada@example.com" })).resolves.toMatchObject({
        id: a.contactId,
        firstName: "Ada",
        lastName: "Lovelace",
      });
      const third = await inbound({ messageSid: "SM-3", firstName: "Other", lastName: "Other", email: "other@example.com" });
      expect((await admin(`/contacts/${a.contactId}`)).contact).toMatchObject({
        firstName: "Ada",
        lastName: "Lovelace",
        email: "ada@example.com",
      });
      expect((await admin(`/messages/${third.messageId}`)).contactId).toBe(a.contactId);
      const fourth = await inbound({ messageSid: "SM-4", fromId: "user-2" });
      expect((await admin(`/messages/${fourth.messageId}`)).contactId).not.toBe(a.contactId);
    });

    it("an email another contact of the account has is not copied, on creation or later: a lookup by it finds one contact", async () => {
      const owner = await acme().contacts.create({ email: "taken@example.com", firstName: "Owner" });
      const created = await inbound({ messageSid: "SM-1", fromId: "user-1", email: "taken@example.com", firstName: "Ada" });
      const later = await inbound({ messageSid: "SM-2", fromId: "user-2" });
      await inbound({ messageSid: "SM-3", fromId: "user-2", email: "taken@example.com", lastName: "Byron" });
      const first = (await admin(`/contacts/${(await admin(`/messages/${created.messageId}`)).contactId}`)).contact;
      const second = (await admin(`/contacts/${(await admin(`/messages/${later.messageId}`)).contactId}`)).contact;
      expect(first).toMatchObject({ firstName: "Ada", email: null });
      expect(second).toMatchObject({ lastName: "Byron", email: null });
      await expect(acme().contacts.find({ email: "taken@example.com" })).resolves.toMatchObject({ id: owner.id });
    });

    it("a lead created by a funnel who then writes in from their phone number keeps their record; the message fills what it lacks", async () => {
      const lead = await acme().contacts.create({ phone: "+14155550123", firstName: "Ada" });
      await inbound({ messageSid: "SM-1", fromId: "+14155550123", firstName: "Nickname", lastName: "Lovelace", email: "ada@example.com" });
      expect((await admin(`/contacts/${lead.id}`)).contact).toMatchObject({
        fromId: "+14155550123",
        firstName: "Ada",
        lastName: "Lovelace",
        email: "ada@example.com",
      });
    });

    direct("an empty or whitespace body is 400 { error: 'Message body cannot be empty.' }", async () => {
      for (const body of ["", "  \n "]) {
        expect(await post({ customData: { messageSid: "SM-1", fromId: "u", toId: "t", body } })).toMatchObject({
          status: 400,
          body: { error: "Message body cannot be empty." },
        });
      }
      expect(await admin("/messages?accountId=acc_acme")).toHaveLength(0);
    });

    direct("a missing fromId is 400 in the string shape", async () => {
      expect(await post({ customData: { messageSid: "SM-1", toId: "t", body: "Hi" } })).toEqual({
        status: 400,
        body: { error: "customData.fromId is required." },
        headers: expect.anything(),
      });
    });

    direct.each([
      [{ messageSid: "SM-1", fromId: "u", body: "Hi" }, "customData.toId is required."],
      [{ fromId: "u", toId: "t", body: "Hi" }, "Either customData.messageSid or customData.id is required."],
      [{ messageSid: "SM-1", fromId: "u", toId: "t" }, "customData.body is required."],
    ])("%o is 400: %s", async (customData, message) => {
      expect((await post({ customData })).body).toEqual({ error: message });
    });

    direct("messageSid and id with different values are 400, and nothing is stored; the same value in both is one id", async () => {
      expect(await post({ customData: { messageSid: "SM-1", id: "SM-2", fromId: "u", toId: "t", body: "Hi" } })).toMatchObject({
        status: 400,
        body: {
          error: "customData.messageSid and customData.id are two names for the message's id: send one of them, or the same value in both.",
        },
      });
      expect(await admin("/messages?accountId=acc_acme")).toHaveLength(0);
      const both = await acme().messages.receive({ customData: { messageSid: "SM-3", id: "SM-3", fromId: "u", toId: "t", body: "Hi" } });
      expect(await acme().messages.receive({ customData: { id: "SM-3", fromId: "u", toId: "t", body: "Hi" } })).toMatchObject({
        messageId: both.messageId,
        duplicate: true,
      });
    });

    direct("ids of only whitespace are 400 in the string shape, and nothing is stored", async () => {
      for (const field of ["messageSid", "id", "fromId", "toId", "reactionTo"]) {
        const customData = { messageSid: "SM-1", fromId: "u", toId: "t", body: "Hi", [field]: "   " };
        if (field === "id") delete (customData as Record<string, unknown>).messageSid;
        const messageType = field === "reactionTo" ? { messageType: "reaction" } : {};
        expect(await post({ customData, ...messageType }), field).toMatchObject({
          status: 400,
          body: { error: `customData.${field} must not be empty or only whitespace.` },
        });
      }
      expect(await admin("/messages?accountId=acc_acme")).toHaveLength(0);
      expect(await admin("/contacts?accountId=acc_acme")).toHaveLength(0);
    });

    direct("ids are 1 to 256 characters: empty and 257 are 400, 256 is stored", async () => {
      expect((await post({ customData: { messageSid: "", fromId: "u", toId: "t", body: "Hi" } })).body).toEqual({
        error: "customData.messageSid must not be empty.",
      });
      expect((await post({ customData: { messageSid: "SM-1", fromId: "u".repeat(257), toId: "t", body: "Hi" } })).body).toEqual({
        error: "customData.fromId must be at most 256 characters.",
      });
      expect(await admin("/messages?accountId=acc_acme")).toHaveLength(0);
      expect(await post({ customData: { messageSid: "SM-1", fromId: "u".repeat(256), toId: "t", body: "Hi" } })).toMatchObject({
        status: 200,
      });
    });

    direct("a missing customData and an unknown messageType are 400", async () => {
      expect((await post({})).body).toEqual({ error: "customData is required." });
      expect((await post({ messageType: "sticker", customData: { messageSid: "S", fromId: "u", toId: "t", body: "x" } })).body).toEqual({
        error: "messageType must be one of: text, reaction.",
      });
    });

    direct.each(["GET", "PUT", "DELETE", "PATCH"])("%s is 405 with Allow: POST, in the string shape", async (method) => {
      const response = await json(await raw(target(), `/incoming_custom_channel_message?apiKey=${KEYS.acme}`, { method }));
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
      expect(response.body).toEqual({ error: `Method ${method} is not allowed on /incoming_custom_channel_message; use POST.` });
    });

    it("a reaction is stored with its target and type", async () => {
      const target0 = await inbound({});
      const reaction = await acme().messages.receive({
        messageType: "reaction",
        customData: { messageSid: "SM-2", fromId: "user-1", toId: "t", body: "👍", reactionTo: "SM-1" },
      });
      expect(await admin(`/messages/${reaction.messageId}`)).toMatchObject({ messageType: "reaction", body: "👍", reactionTo: "SM-1" });
      expect(target0.messageId).not.toBe(reaction.messageId);
    });

    direct("a reaction needs reactionTo, and reactionTo needs a reaction", async () => {
      expect((await post({ messageType: "reaction", customData: { messageSid: "S", fromId: "u", toId: "t", body: "👍" } })).body).toEqual({
        error: "customData.reactionTo is required for a reaction: the messageSid or messageId of the message reacted to.",
      });
      expect((await post({ customData: { messageSid: "S", fromId: "u", toId: "t", body: "x", reactionTo: "S0" } })).body).toEqual({
        error: 'customData.reactionTo is only for messageType "reaction".',
      });
    });

    it("an unknown campaignId is 404 in the string shape", async () => {
      const response = await post({ customData: { messageSid: "S", fromId: "u", toId: "t", body: "x", campaignId: "cmp_missing" } });
      expect(response).toMatchObject({ status: 404, body: { error: "No campaign with id cmp_missing." } });
    });

    describe("media", () => {
      it("a data URL whose bytes are what mediaContentType says is accepted and stored", async () => {
        const mediaUrl = `data:image/png;base64,${PNG}`;
        const result = await inbound({ mediaUrl, mediaContentType: "image/png" });
        expect(await admin(`/messages/${result.messageId}`)).toMatchObject({ mediaUrl, mediaContentType: "image/png" });
        await expect(
          inbound({ messageSid: "SM-2", mediaUrl: `data:application/pdf;base64,${PDF}`, mediaContentType: "application/pdf" }),
        ).resolves.toMatchObject({ success: true });
        await expect(
          inbound({
            messageSid: "SM-3",
            mediaUrl: `data:text/plain;base64,${Buffer.from("hello").toString("base64")}`,
            mediaContentType: "text/plain",
          }),
        ).resolves.toMatchObject({ success: true });
      });

      it("formats a sniffer names otherwise are accepted under their usual types", async () => {
        const base64 = (bytes: Buffer | string) => Buffer.from(bytes).toString("base64");
        const ebml = (docType: string) =>
          Buffer.concat([
            Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x80 | (3 + docType.length), 0x42, 0x82, 0x80 | docType.length]),
            Buffer.from(docType),
            Buffer.alloc(64),
          ]);
        const compoundFile = Buffer.concat([Buffer.from("d0cf11e0a1b11ae1", "hex"), Buffer.alloc(1016)]);
        const cases: Array<[string, Buffer | string]> = [
          // An SVG as editors save it, with an XML declaration.
          ["image/svg+xml", '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg"></svg>'],
          ["text/xml", '<?xml version="1.0"?><order id="7"/>'],
          ["application/rss+xml", '<?xml version="1.0"?><rss version="2.0"/>'],
          // Word and Excel 97-2003 files are compound files.
          ["application/msword", compoundFile],
          ["application/vnd.ms-excel", compoundFile],
          ["video/x-matroska", ebml("matroska")],
          ["audio/x-flac", Buffer.concat([Buffer.from("fLaC"), Buffer.alloc(64)])],
          // One Ogg container, declared as audio or video.
          ["video/ogg", Buffer.concat([Buffer.from("OggS"), Buffer.alloc(24), Buffer.from("\x01vorbis"), Buffer.alloc(64)])],
        ];
        for (const [index, [type, bytes]] of cases.entries()) {
          await expect(
            inbound({ messageSid: `SM-F${index}`, mediaUrl: `data:${type};base64,${base64(bytes)}`, mediaContentType: type }),
            type,
          ).resolves.toMatchObject({ success: true });
        }
      });

      it("a public URL is stored as given", async () => {
        const result = await inbound({ mediaUrl: "https://files.example.com/invoice.pdf", mediaContentType: "application/pdf" });
        expect((await admin(`/messages/${result.messageId}`)).mediaUrl).toBe("https://files.example.com/invoice.pdf");
      });

      it("mediaUrl: null is no media", async () => {
        const result = await inbound({ mediaUrl: null, mediaContentType: null });
        expect((await admin(`/messages/${result.messageId}`)).mediaUrl).toBeNull();
      });

      direct("bytes that are not the declared type are 400, and nothing is stored", async () => {
        const response = await post({
          customData: {
            messageSid: "S",
            fromId: "u",
            toId: "t",
            body: "x",
            mediaUrl: `data:image/jpeg;base64,${PNG}`,
            mediaContentType: "image/jpeg",
          },
        });
        expect(response).toMatchObject({
          status: 400,
          body: { error: "customData.mediaContentType is image/jpeg but the file's content is image/png." },
        });
        const garbage = await post({
          customData: {
            messageSid: "S",
            fromId: "u",
            toId: "t",
            body: "x",
            mediaUrl: `data:image/png;base64,${Buffer.from("not a picture").toString("base64")}`,
            mediaContentType: "image/png",
          },
        });
        expect(garbage.body.error).toMatch(/could not be confirmed as image\/png/);
        expect(await admin("/messages?accountId=acc_acme")).toHaveLength(0);
        expect(await admin("/contacts?accountId=acc_acme")).toHaveLength(0);
      });

      direct("text types are checked for their own structure, and mediaContentType must be a MIME type", async () => {
        const data = (text: string) => Buffer.from(text).toString("base64");
        const receive = (mediaUrl: string, mediaContentType: string) =>
          post({ customData: { messageSid: "S", fromId: "u", toId: "t", body: "x", mediaUrl, mediaContentType } });
        expect((await receive(`data:application/json;base64,${data("hello")}`, "application/json")).body.error).toMatch(
          /could not be confirmed as application\/json/,
        );
        expect((await receive(`data:image/svg+xml;base64,${data("hello")}`, "image/svg+xml")).body.error).toMatch(
          /could not be confirmed as image\/svg\+xml/,
        );
        expect((await receive("https://files.example.com/a.png", "banana")).body).toEqual({
          error: "customData.mediaContentType must be a MIME type such as image/png.",
        });
        await expect(
          inbound({ mediaUrl: `data:application/json;base64,${data('{"a":1}')}`, mediaContentType: "application/json" }),
        ).resolves.toMatchObject({ success: true });
        await expect(
          inbound({
            messageSid: "SM-2",
            mediaUrl: `data:image/svg+xml;base64,${data('<svg xmlns="http://www.w3.org/2000/svg"/>')}`,
            mediaContentType: "image/svg+xml",
          }),
        ).resolves.toMatchObject({ success: true });
      });

      direct("a format's other names stop at its own family: a compound file is no PDF, an XML document no SVG", async () => {
        const receive = (type: string, bytes: Buffer) =>
          post({
            customData: {
              messageSid: "S",
              fromId: "u",
              toId: "t",
              body: "x",
              mediaUrl: `data:${type};base64,${bytes.toString("base64")}`,
              mediaContentType: type,
            },
          });
        const compoundFile = Buffer.concat([Buffer.from("d0cf11e0a1b11ae1", "hex"), Buffer.alloc(1016)]);
        expect(await receive("application/pdf", compoundFile)).toMatchObject({
          status: 400,
          body: { error: "customData.mediaContentType is application/pdf but the file's content is application/x-cfb." },
        });
        expect(await receive("image/svg+xml", Buffer.from('<?xml version="1.0"?><html/>'))).toMatchObject({
          status: 400,
          body: { error: "customData.mediaContentType is image/svg+xml but the file's content is application/xml." },
        });
        expect(await admin("/messages?accountId=acc_acme")).toHaveLength(0);
      });

      direct("a data URL type that differs from mediaContentType is 400", async () => {
        const response = await post({
          customData: {
            messageSid: "S",
            fromId: "u",
            toId: "t",
            body: "x",
            mediaUrl: `data:image/png;base64,${PNG}`,
            mediaContentType: "image/gif",
          },
        });
        expect(response.body).toEqual({ error: "customData.mediaContentType image/gif does not match the data URL's type image/png." });
      });

      direct("mediaUrl without mediaContentType, or with a null one, is 400", async () => {
        const response = await post({
          customData: { messageSid: "S", fromId: "u", toId: "t", body: "x", mediaUrl: `data:image/png;base64,${PNG}` },
        });
        expect(response.body).toEqual({ error: "customData.mediaContentType is required when customData.mediaUrl is given." });
        const nullType = await post({
          customData: {
            messageSid: "S",
            fromId: "u",
            toId: "t",
            body: "x",
            mediaUrl: `data:image/png;base64,${PNG}`,
            mediaContentType: null,
          },
        });
        expect(nullType.body).toEqual({ error: "customData.mediaContentType is required when customData.mediaUrl is given." });
      });

      direct("a mediaUrl that is neither a URL nor a data URL, or bad base64, is 400", async () => {
        expect(
          (
            await post({
              customData: { messageSid: "S", fromId: "u", toId: "t", body: "x", mediaUrl: "ftp://x/y", mediaContentType: "image/png" },
            })
          ).body.error,
        ).toMatch(/must be a public http\(s\) URL or a data URL/);
        // "ab=", "abcde=", "abcdef=": padding that does not fill the last group of four (once a 500).
        for (const data of ["@@@", "ab=", "abcde=", "abcdef="]) {
          expect(
            await post({
              customData: {
                messageSid: "S",
                fromId: "u",
                toId: "t",
                body: "x",
                mediaUrl: `data:image/png;base64,${data}`,
                mediaContentType: "image/png",
              },
            }),
            data,
          ).toMatchObject({
            status: 400,
            body: { error: "customData.mediaUrl's data is not valid base64." },
          });
        }
      });

      direct("a data URL over the per-message limit (5 MiB on the server) is 400 naming it; one at the limit is accepted", async () => {
        const png = Buffer.from(PNG, "base64");
        const file = (size: number) => `data:image/png;base64,${Buffer.concat([png, Buffer.alloc(size - png.length)]).toString("base64")}`;
        const { maxMediaBytes } = limitsOf(target());
        const response = await post({
          customData: {
            messageSid: "S",
            fromId: "u",
            toId: "t",
            body: "x",
            mediaUrl: file(maxMediaBytes + 1),
            mediaContentType: "image/png",
          },
        });
        const size = mebibytes(maxMediaBytes);
        expect(response).toMatchObject({
          status: 400,
          body: {
            error: `The file in customData.mediaUrl is ${maxMediaBytes + 1} bytes (${size}); the per-message media limit is ${maxMediaBytes} bytes (${size}). Send a smaller file, or a public https:// URL to it.`,
          },
        });
        expect(await admin("/messages?accountId=acc_acme")).toHaveLength(0);
        await expect(inbound({ messageSid: "S-max", mediaUrl: file(maxMediaBytes), mediaContentType: "image/png" })).resolves.toMatchObject(
          { success: true },
        );
      });
    });
  });

  describe("custom-channel senders and contacts", () => {
    it("one fromId is one contact on send and receive alike; another fromId is another contact", async () => {
      const sent = await acme().messages.send({ customData: { fromId: "user-1", customChannel: "acme-chat", body: "Welcome!" } });
      const received = await inbound({ fromId: "user-1" });
      const again = await acme().messages.send({ customData: { fromId: "user-1", customChannel: "acme-chat", body: "Anything else?" } });
      const other = await inbound({ messageSid: "SM-2", fromId: "user-2" });
      expect((await admin(`/messages/${received.messageId}`)).contactId).toBe(sent.contactId);
      expect(again.contactId).toBe(sent.contactId);
      expect((await admin(`/messages/${other.messageId}`)).contactId).not.toBe(sent.contactId);
      expect(await admin("/contacts?accountId=acc_acme")).toHaveLength(2);
    });

    it("a new sender's names and email are on the contact it creates, which GET /contacts finds by that email", async () => {
      const sent = await acme().messages.send({
        customData: {
          fromId: "user-1",
          customChannel: "acme-chat",
          body: "Hi",
          firstName: "Ada",
          lastName: "Lovelace",
          email: "ada@example.com",
        },
      });
      await expect(acme().contacts.find({ email: "ada@example.com" })).resolves.toMatchObject({
        id: sent.contactId,
        firstName: "Ada",
        lastName: "Lovelace",
        email: "ada@example.com",
      });
      const received = await inbound({ fromId: "user-2", firstName: "Grace", lastName: "Hopper", email: "grace@example.com" });
      const { contactId } = await admin(`/messages/${received.messageId}`);
      await expect(acme().contacts.find({ email: "grace@example.com" })).resolves.toMatchObject({
        id: contactId,
        firstName: "Grace",
        lastName: "Hopper",
      });
    });

    it("a lead who wrote in first as its phone number is the contact a later create returns (200), not a second one", async () => {
      const received = await inbound({ fromId: "+14155550123" });
      const { contactId } = await admin(`/messages/${received.messageId}`);
      const created = await acme().raw.POST("/contacts", { body: { phone: "+14155550123", firstName: "Ada" } });
      expect(created.response.status).toBe(200);
      expect(created.data?.id).toBe(contactId);
      await expect(acme().contacts.find({ phoneNumber: "+14155550123" })).resolves.toMatchObject({ id: contactId });
      expect(await admin("/contacts?accountId=acc_acme")).toHaveLength(1);
    });
  });
};
