// The client's behaviour in one runtime, run the same way in Node, Bun, Deno, workerd and
// Chromium against the reference server (over HTTPS) or its msw handlers (in process). It uses
// only what every one of those runtimes has (fetch, AbortController, TextEncoder), so a failure
// here is the runtime's difference, not the suite's. It answers a list of checks, each passed or
// failed with the reason, for the test that ran it to assert.
import {
  AuthenticationError,
  BadRequestError,
  createIntakeClient,
  type FetchFn,
  type LogEntry,
  TimeoutError,
  AbortError,
} from "@intake/client";
import { verifyWebhook, WebhookVerificationError } from "@intake/client/webhooks";
import { createAdminClient } from "@intake/server/admin-client";

/** Where the suite runs its calls: what the orchestrating test (or the runtime itself, for msw) set up. */
export interface SuiteTarget {
  baseUrl: string;
  adminUrl: string;
  adminToken: string;
  /** Given when the runtime must reach the server through something other than its own fetch. */
  fetch?: FetchFn;
}

export interface CheckResult {
  name: string;
  ok: boolean;
  error?: string;
}

export const SUITE_ACCOUNT = "acc_runtime";
export const SUITE_KEY = "ik_runtime_suite_key_0000001";
export const SUITE_SECRET = "whsec_cnVudGltZS1zdWl0ZS13ZWJob29rLXNlY3JldA==";
export const SUITE_ADMIN_TOKEN = "adm_runtime_suite_token_00001";

/** The one account the suite needs: a list to add leads to, webhooks to the server's own inbox. */
export const SUITE_SEED = {
  accounts: [
    {
      id: SUITE_ACCOUNT,
      name: "Runtime suite",
      apiKey: SUITE_KEY,
      credits: 100,
      webhookUrl: `/__inbox/${SUITE_ACCOUNT}`,
      webhookSecret: SUITE_SECRET,
      lists: [{ id: "lst_runtime", name: "Runtime leads" }],
    },
  ],
};

/** The checks, by name: each test asserts all of them ran and passed. */
export const CHECKS = [
  "calls: create, find and add to a list in the query form",
  "calls: the bearer form's snake_case spelling",
  "errors: a wrong key is an AuthenticationError",
  "errors: a bad phone number is a BadRequestError with its code",
  "retries: a 503 on a safe call is retried and succeeds",
  "retries: a 503 on send is not retried (the effect is never doubled)",
  "timeouts: timeoutMs ends a slow call with a TimeoutError",
  "abort: the caller's signal ends a call with an AbortError",
  "webhooks: the server's signed webhook verifies; a changed body does not",
] as const;

export async function runClientSuite(target: SuiteTarget): Promise<CheckResult[]> {
  const send: FetchFn = target.fetch ?? ((request) => globalThis.fetch(request));
  const admin = createAdminClient({ adminUrl: target.adminUrl, token: target.adminToken, fetch: send });
  const entries: LogEntry[] = [];
  const options = { apiKey: SUITE_KEY, baseUrl: target.baseUrl, fetch: send, logger: (entry: LogEntry) => void entries.push(entry) };
  const query = createIntakeClient({ auth: "query", ...options });
  const bearer = createIntakeClient({ auth: "bearer", ...options });
  // Random numbers: a run that meets an earlier run's contact still passes (create answers it).
  const phone = () => `+1415555${String(crypto.getRandomValues(new Uint16Array(1))[0]! % 10_000).padStart(4, "0")}`;
  // An address no contact has: a lookup that reaches the service answers null.
  const absent = () => ({ email: `absent-${crypto.randomUUID()}@example.com` });
  const retries = () => entries.filter((entry) => entry.event === "retry").length;

  const checks: Record<(typeof CHECKS)[number], () => Promise<void>> = {
    [CHECKS[0]]: async () => {
      const created = await query.contacts.create({ phone: phone(), firstName: "Ada" });
      const found = await query.contacts.find({ phoneNumber: created.phone! });
      expect(found?.id === created.id, `find answered ${JSON.stringify(found)} for ${created.id}`);
      const added = await query.lists.addContact("lst_runtime", { contactId: created.id });
      expect(added.success && added.contactId === created.id, `addContact answered ${JSON.stringify(added)}`);
    },
    [CHECKS[1]]: async () => {
      const number = phone();
      const created = await bearer.contacts.create({ phone_number: number, first_name: "Grace" });
      expect(created.phone === number, `create answered ${JSON.stringify(created)}`);
      const added = await bearer.lists.addContact("lst_runtime", { contact_id: created.id });
      expect(added.success && added.contactId === created.id, `addContact answered ${JSON.stringify(added)}`);
    },
    [CHECKS[2]]: async () => {
      const wrong = createIntakeClient({ ...options, auth: "query", apiKey: "ik_not_a_key_at_all_000000" });
      const error = await wrong.contacts.find(absent()).catch((e: unknown) => e);
      expect(error instanceof AuthenticationError && error.status === 401, `threw ${describe(error)}`);
    },
    [CHECKS[3]]: async () => {
      const error = await query.contacts.create({ phone: "not a phone" }).catch((e: unknown) => e);
      expect(error instanceof BadRequestError && error.status === 400 && error.code === "INVALID_PHONE", `threw ${describe(error)}`);
    },
    [CHECKS[4]]: async () => {
      await admin.setFaults([{ operationId: "findContact", status: 503, times: 1 }]);
      const before = retries();
      const found = await query.contacts.find(absent());
      expect(found === null, `find answered ${JSON.stringify(found)}`);
      expect(retries() === before + 1, `${retries() - before} retries logged, expected 1`);
    },
    [CHECKS[5]]: async () => {
      await admin.setFaults([{ operationId: "sendCustomChannelMessage", status: 503, times: 1 }]);
      const before = retries();
      const error = await query.messages
        .send({ customData: { fromId: "runtime", customChannel: "chat", body: "Hello" } })
        .catch((e: unknown) => e);
      expect((error as { status?: number }).status === 503, `threw ${describe(error)}`);
      expect(retries() === before, `${retries() - before} retries logged, expected none`);
    },
    [CHECKS[6]]: async () => {
      await admin.setFaults([{ operationId: "findContact", latencyMs: 2_000, times: 1 }]);
      const error = await query.contacts.find(absent(), { timeoutMs: 200, maxRetries: 0 }).catch((e: unknown) => e);
      expect(error instanceof TimeoutError, `threw ${describe(error)}`);
    },
    [CHECKS[7]]: async () => {
      await admin.setFaults([{ operationId: "findContact", latencyMs: 2_000, times: 1 }]);
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      const error = await query.contacts.find(absent(), { signal: controller.signal }).catch((e: unknown) => e);
      expect(error instanceof AbortError, `threw ${describe(error)}`);
    },
    [CHECKS[8]]: async () => {
      await admin.clearInbox(SUITE_ACCOUNT);
      await admin.sendTestWebhook(SUITE_ACCOUNT);
      const [request] = (await admin.inbox(SUITE_ACCOUNT)).requests;
      if (!request) throw new Error("the test webhook did not reach the inbox");
      const event = verifyWebhook(SUITE_SECRET, request.body, request.headers);
      expect(event.type === "reply", `verified as ${JSON.stringify(event)}`);
      const error = (() => {
        try {
          verifyWebhook(SUITE_SECRET, request.body.replace("test", "TEST"), request.headers);
        } catch (e) {
          return e;
        }
      })();
      expect(error instanceof WebhookVerificationError, `a changed body gave ${describe(error)}`);
    },
  };

  const results: CheckResult[] = [];
  for (const name of CHECKS) {
    try {
      await checks[name]();
      results.push({ name, ok: true });
    } catch (error) {
      results.push({ name, ok: false, error: describe(error) });
    } finally {
      await admin.clearFaults().catch(() => undefined);
    }
  }
  return results;
}

function expect(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

function describe(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  return `no error (${JSON.stringify(value)})`;
}

/** Addresses where a connection fails: nothing listening, and a server whose certificate this runtime does not trust. */
export interface ConnectionProbe {
  refusedUrl: string;
  untrustedUrl: string;
}

/** What the client made of one failed connection. */
export interface ConnectionOutcome {
  name: string;
  code: string | undefined;
  message: string;
  /** Attempts made (1 when the failure was not retried). */
  attempts: number;
}

/**
 * The client's errors for a refused connection (on send, which is retried only when nothing was
 * sent) and for an untrusted certificate (on a lookup, which is safe to repeat, so only the
 * certificate rule stops a retry). The test that ran it asserts what each runtime can tell.
 */
export async function probeConnections(probe: ConnectionProbe): Promise<{ refused: ConnectionOutcome; untrusted: ConnectionOutcome }> {
  async function outcome(
    baseUrl: string,
    call: (client: ReturnType<typeof createIntakeClient<"query">>) => Promise<unknown>,
  ): Promise<ConnectionOutcome> {
    let attempts = 0;
    const client = createIntakeClient({
      auth: "query",
      apiKey: SUITE_KEY,
      baseUrl,
      retry: { initialDelayMs: 1, maxDelayMs: 2 },
      logger: (entry) => void (entry.event === "request" && attempts++),
    });
    const error = (await call(client).then(
      () => new Error("no error"),
      (e: unknown) => e,
    )) as Error & { code?: string };
    return { name: error.name, code: error.code, message: error.message, attempts };
  }
  return {
    refused: await outcome(probe.refusedUrl, (c) =>
      c.messages.send({ customData: { fromId: "runtime", customChannel: "chat", body: "Hello" } }),
    ),
    untrusted: await outcome(probe.untrustedUrl, (c) => c.contacts.find({ email: "probe@example.com" })),
  };
}
