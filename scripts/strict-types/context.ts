// What the READMEs' snippets take from the code around them: check-strict-types.mjs imports from
// here each of these names a snippet uses without declaring it. Values a user reads from the
// environment are `string | undefined`, as `process.env` gives them.
import type { IntakeClient } from "@intake/client";
import type { Seed } from "@intake/server";

export { createIntakeClient } from "@intake/client";
export { startIntakeServer, connectIntake } from "@intake/server/testing";
export { readFile } from "node:fs/promises";

export declare const apiKey: string | undefined;
export declare const baseUrl: string | undefined;
export declare const email: string;
/** A client made as the client README's first snippet makes it. */
export declare const intake: IntakeClient<"query">;
/** A webhook's request, as a web framework hands it over, and its body as received. */
export declare const request: Request;
export declare const rawBody: string;
export declare function deliverToUser(toId: string, body: string): void;
export declare const seed: Seed;
/** A fetch for outgoing webhooks that records them (a test's). */
export declare const captureWebhooks: typeof fetch;
/** Vitest's own, so a snippet that leaves out its ProvidedContext augmentation fails as it would for a user. */
export { inject, beforeEach } from "vitest";
