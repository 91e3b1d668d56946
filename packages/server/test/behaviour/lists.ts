import { describe, expect } from "vitest";
import { client } from "../support/harness.js";
import { KEYS } from "../support/seed.js";
import { cases, type Register } from "./cases.js";

export const lists: Register = (target, options) => {
  const { it, direct } = cases(options);
  const acme = () => client(target(), "query", KEYS.acme);
  const members = async (listId: string) =>
    (await target().harness.admin("GET", `/lists/${listId}/contacts`)).body as Array<{ id: string }>;

  describe("POST /lists/{listId}/contacts", () => {
    it("adds a contact (201, added: true)", async () => {
      const contact = await acme().contacts.create({ phone: "+14155550123" });
      const { data, response } = await acme().raw.POST("/lists/{listId}/contacts", {
        params: { path: { listId: "lst_acme" } },
        body: { contactId: contact.id },
      });
      expect(response.status).toBe(201);
      expect(data).toEqual({
        success: true,
        listId: "lst_acme",
        contactId: contact.id,
        added: true,
        message: "Contact added to the list.",
      });
      expect((await members("lst_acme")).map((c) => c.id)).toEqual([contact.id]);
    });

    it("a second add is a harmless success that says so (200, added: false)", async () => {
      const contact = await acme().contacts.create({ phone: "+14155550123" });
      await acme().lists.addContact("lst_acme", { contactId: contact.id });
      const { data, response } = await acme().raw.POST("/lists/{listId}/contacts", {
        params: { path: { listId: "lst_acme" } },
        body: { contactId: contact.id },
      });
      expect(response.status).toBe(200);
      expect(data).toMatchObject({ success: true, added: false, message: "Contact is already in the list; nothing changed." });
      expect(await members("lst_acme")).toHaveLength(1);
    });

    it("the Bearer form sends contact_id", async () => {
      const contact = await acme().contacts.create({ phone: "+14155550123" });
      await expect(client(target(), "bearer", KEYS.acme).lists.addContact("lst_acme", { contact_id: contact.id })).resolves.toMatchObject({
        added: true,
      });
    });

    it("an unknown list is 404 LIST_NOT_FOUND", async () => {
      const contact = await acme().contacts.create({ phone: "+14155550123" });
      await expect(acme().lists.addContact("lst_missing", { contactId: contact.id })).rejects.toMatchObject({
        status: 404,
        code: "LIST_NOT_FOUND",
        message:
          "No list with id lst_missing. Lists are in the dashboard under Contacts > Lists" +
          " (on the reference server: GET /__admin/lists?accountId=acc_acme, or /__dashboard/lists?account=acc_acme).",
      });
    });

    it("an unknown contact is 404 CONTACT_NOT_FOUND, and nothing joins", async () => {
      await expect(acme().lists.addContact("lst_acme", { contactId: "ct_missing" })).rejects.toMatchObject({
        status: 404,
        code: "CONTACT_NOT_FOUND",
      });
      expect(await members("lst_acme")).toHaveLength(0);
    });

    direct("contactId with the Bearer form is 400 WRONG_FIELD_SPELLING", async () => {
      await expect(
        client(target(), "bearer", KEYS.acme).lists.addContact("lst_acme", { contactId: "ct_1" } as never),
      ).rejects.toMatchObject({
        code: "WRONG_FIELD_SPELLING",
        message: "Unexpected field contactId: with Authorization: Bearer the body is snake_case; send contact_id instead.",
      });
    });

    direct("a missing contactId is 400", async () => {
      await expect(acme().lists.addContact("lst_acme", {} as never)).rejects.toMatchObject({
        code: "VALIDATION_ERROR",
        message: "contactId is required.",
      });
    });
  });
};
