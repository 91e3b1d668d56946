// @intake/server/admin-client, the entry the dashboard loads in a browser: the admin client alone.
import { AdminApiError, createAdminClient, unwrap } from "@intake/server/admin-client";
import { describe, expect, it } from "vitest";
import { importGraph } from "../support/import-graph.js";

/** A client whose fetch answers every request with `answer`, and keeps the requests. */
function clientAnswering(answer: () => Response) {
  const requests: Request[] = [];
  const admin = createAdminClient({
    adminUrl: "https://intake.test/__admin",
    token: "adm_test",
    fetch: async (request) => (requests.push(request), answer()),
  });
  return { admin, requests };
}

describe("@intake/server/admin-client", () => {
  it("loads nothing Node-only: its whole import graph bundles for a browser", async () => {
    const loaded = await importGraph("src/admin-client.ts", { platform: "browser" });
    expect(loaded).toEqual([
      "eventsource-parser",
      "openapi-fetch",
      "src/admin-client.ts",
      "src/admin/client.ts",
      "src/admin/event-stream.ts",
      "src/admin/wait-for-delivery.ts",
    ]);
  });

  it("unwrap gives a raw call's data, or its refusal as an AdminApiError", async () => {
    const found = clientAnswering(() => Response.json({ id: "lst_1", name: "Spring leads" }));
    await expect(unwrap(found.admin.raw.GET("/lists/{listId}", { params: { path: { listId: "lst_1" } } }))).resolves.toMatchObject({
      id: "lst_1",
    });
    expect(found.requests[0]!.headers.get("authorization")).toBe("Bearer adm_test");

    const missing = clientAnswering(() =>
      Response.json({ error: { code: "NOT_FOUND", message: "No list with id lst_2." } }, { status: 404 }),
    );
    const error = await unwrap(missing.admin.raw.GET("/lists/{listId}", { params: { path: { listId: "lst_2" } } })).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AdminApiError);
    expect(error).toMatchObject({ status: 404, code: "NOT_FOUND", message: "No list with id lst_2." });
  });

  it("events() asks for one account's events with the token in a header", async () => {
    const { admin, requests } = clientAnswering(() => new Response("", { headers: { "content-type": "text/event-stream" } }));
    const subscription = await admin.events({ accountId: "acc 1", lastEventId: 7 });
    subscription.close();
    expect(requests[0]!.url).toBe("https://intake.test/__admin/events?accountId=acc+1");
    expect(Object.fromEntries(requests[0]!.headers)).toMatchObject({
      authorization: "Bearer adm_test",
      "last-event-id": "7",
      accept: "text/event-stream",
    });
  });
});
