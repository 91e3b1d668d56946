// The node adapter's own behaviour: routing, odd targets, pipelining, closing, timeouts, fake
// timers, and its own failures (over a core of the test's own).
import { createIntake } from "@intake/server";
import { internals } from "@intake/server/hosting";
import { serve } from "@intake/server/node";
import { execFile } from "node:child_process";
import { Agent, request } from "node:https";
import { connect, type Socket } from "node:net";
import { connect as tlsConnect } from "node:tls";
import { fileURLToPath } from "node:url";
import { Agent as UndiciAgent } from "undici";
import { afterEach, describe, expect, it, vi } from "vitest";
// The node adapter itself, over a core of the test's own: one that fails, one that stops the server as it answers.
import { serve as serveCore } from "../../src/adapters/node.js";
import { quoted } from "../support/child-output.js";
import { startHarness, type HttpsHarness } from "../support/harness.js";
import { KEYS, SEED } from "../support/seed.js";
import { rethrowingIntake } from "../support/in-process.js";

let harness: HttpsHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("the node adapter", () => {
  /** A request over HTTPS to the harness with headers as given (repeats too); the answer, and whether its connection was used before. */
  const send = (method: string, path: string, headers: Record<string, string | string[]>, body?: string, agent?: Agent) =>
    new Promise<{ status: number; body: string; reused: boolean; requestId: string | undefined }>((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port: harness!.server.port,
          path,
          method,
          headers,
          agent,
          ca: harness!.server.certificate,
          servername: "localhost",
        },
        (res) => {
          let text = "";
          res.on("data", (c) => (text += c));
          res.on("end", () =>
            resolve({
              status: res.statusCode!,
              body: text,
              reused: req.reusedSocket,
              requestId: res.headers["x-request-id"] as string | undefined,
            }),
          );
        },
      );
      req.on("error", reject);
      req.end(body);
    });

  it("routes by the request's path, whatever the Host header says; answers odd targets and oversized headers in the API's shape", async () => {
    harness = await startHarness();
    // Were the Host header part of the URL, this would reach GET /__admin/clock with a valid admin token.
    const steered = await send("GET", "/v1/contacts?email=a%40example.com", {
      host: "h/__admin/clock#",
      authorization: "Bearer adm_test_token_0123456789",
    });
    expect(steered.status).toBe(401);
    expect(JSON.parse(steered.body).error.code).toBe("INVALID_API_KEY");
    const star = await send("GET", "*", {});
    expect(star.status).toBe(400);
    expect(JSON.parse(star.body)).toEqual({
      error: { code: "VALIDATION_ERROR", message: "The request target must be a path such as /v1/contacts." },
    });
    expect(star.requestId).toMatch(/^req_/);
    // URL and headers past 16 KiB: answered by the core in the shape of the route the request
    // line names, with a request id, and journaled.
    const tooLarge = "The request's URL and headers are larger than the server accepts (16 KiB).";
    const huge = await send("GET", `/v1/contacts?apiKey=${KEYS.acme}&email=${"a".repeat(20_000)}`, {});
    expect(huge).toMatchObject({ status: 400, requestId: expect.stringMatching(/^req_/) });
    expect(JSON.parse(huge.body)).toEqual({ error: { code: "PAYLOAD_TOO_LARGE", message: tooLarge } });
    const receive = await send(
      "POST",
      `/v1/incoming_custom_channel_message?apiKey=${KEYS.acme}`,
      { "content-type": "application/json", "x-pad": "a".repeat(17_000) },
      "{}",
    );
    expect(receive).toMatchObject({ status: 400, requestId: expect.stringMatching(/^req_/) });
    expect(JSON.parse(receive.body)).toEqual({ error: tooLarge });
    // A refused request's path is journaled to 1 KiB (it may run to 64 KiB).
    const longPath = await send("GET", `/v1/${"p".repeat(20_000)}`, {});
    expect(longPath.status).toBe(400);
    const kept = (await harness.admin("GET", "/journal")).body as Array<{ path: string }>;
    expect(kept.at(-1)!.path).toBe(`/v1/${"p".repeat(1020)}`);
    // Past node's own limit (64 KiB) too, the connection then closed.
    const huger = await send("GET", "/v1/contacts", { "x-pad": "a".repeat(70_000) });
    expect(huger).toMatchObject({ status: 400, requestId: expect.stringMatching(/^req_/) });
    expect(JSON.parse(huger.body)).toEqual({ error: { code: "PAYLOAD_TOO_LARGE", message: tooLarge } });
    const journal = (await harness.admin("GET", "/journal")).body as Array<{
      path: string;
      query: object;
      status: number;
      errorCode: string;
    }>;
    expect(journal.slice(-5)).toEqual([
      expect.objectContaining({ path: "/", query: {}, status: 400, errorCode: "VALIDATION_ERROR" }),
      expect.objectContaining({ path: "/v1/contacts", query: {}, status: 400, errorCode: "PAYLOAD_TOO_LARGE" }),
      expect.objectContaining({ path: "/v1/incoming_custom_channel_message", query: {}, status: 400, errorCode: "PAYLOAD_TOO_LARGE" }),
      expect.objectContaining({ status: 400, errorCode: "PAYLOAD_TOO_LARGE" }),
      expect.objectContaining({ status: 400, errorCode: "PAYLOAD_TOO_LARGE" }),
    ]);
    expect(JSON.stringify(journal)).not.toContain(KEYS.acme);
    // A key the 1 KiB cut would end inside is left out whole: cut short, it would not be found as a key.
    const straddling = `/v1/${"p/".repeat(505)}${KEYS.acme}/${"q".repeat(20_000)}`;
    expect((await send("GET", straddling, {})).status).toBe(400);
    const last = ((await harness.admin("GET", "/journal")).body as Array<{ path: string }>).at(-1)!;
    expect(last.path).toBe(`/v1/${"p/".repeat(505)}`);
    // Bytes that are not HTTP at all, on the plain-HTTP side of the port.
    const garbage = await exchange(plainTo(harness.server.port), NOT_HTTP);
    expect(garbage).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n[^]*x-request-id: req_[^]*connection: close\r\n\r\n/);
    expect(bodyOf(garbage)).toEqual({ error: { code: "VALIDATION_ERROR", message: "The request is not valid HTTP." } });
  });

  it("over HTTPS, a target that is not a path, a head over 16 KiB and bytes that are not HTTP get their 400, then the connection is closed", async () => {
    harness = await startHarness();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      // The control: two good requests share one kept-alive connection.
      await send("GET", `/v1/contacts?apiKey=${KEYS.acme}&email=a%40example.com`, {}, undefined, agent);
      expect((await send("GET", `/v1/contacts?apiKey=${KEYS.acme}&email=a%40example.com`, {}, undefined, agent)).reused).toBe(true);
      for (const [target, headers] of [
        ["*", {}],
        ["/v1/contacts", { "x-pad": "a".repeat(17_000) }],
      ] as const) {
        const refused = await send("GET", target, headers, undefined, agent);
        expect(refused, target).toMatchObject({ status: 400, reused: true, requestId: expect.stringMatching(/^req_/) });
        expect((await send("GET", `/v1/contacts?apiKey=${KEYS.acme}&email=a%40example.com`, {}, undefined, agent)).reused, target).toBe(
          false,
        );
      }
    } finally {
      agent.destroy();
    }
    const garbage = await exchange(tlsTo(harness), NOT_HTTP);
    expect(garbage).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n[^]*x-request-id: req_[^]*connection: close\r\n\r\n/);
    expect(bodyOf(garbage)).toEqual({ error: { code: "VALIDATION_ERROR", message: "The request is not valid HTTP." } });
  });

  it("answers requests that arrive together, each with its own answer and in order: pipelined on one connection, and on many connections at once", async () => {
    harness = await startHarness();
    const phones = ["+14155550101", "+14155550102", "+14155550103"];
    for (const phone of phones) {
      expect(
        (
          await send(
            "POST",
            `/v1/contacts?apiKey=${KEYS.acme}`,
            { "content-type": "application/json" },
            JSON.stringify({ phone, firstName: "Pat" }),
          )
        ).status,
      ).toBe(201);
    }
    const byPhone = (i: number, last = false) => find(`phoneNumber=${encodeURIComponent(phones[i]!)}`, last);
    const message = JSON.stringify({ customData: { messageSid: "SM-pipelined", fromId: "user-9", toId: "acme-support", body: "Hello" } });
    const receive = `POST /v1/incoming_custom_channel_message?apiKey=${KEYS.acme} HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: ${message.length}\r\n\r\n${message}`;
    // One write: node reads all five at once, and the answers must still leave in the order asked.
    const answers = answersIn(
      await exchange(tlsTo(harness), byPhone(0) + receive + byPhone(1) + find("email=nobody%40example.com") + byPhone(2, true)),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 404, 200]);
    expect([0, 2, 4].map((i) => (answers[i]!.body as { contact: { phone: string } }).contact.phone)).toEqual(phones);
    expect(answers[1]!.body).toEqual({ success: true, messageId: expect.stringMatching(/^msg_/) });
    expect((answers[3]!.body as { error: { code: string } }).error.code).toBe("CONTACT_NOT_FOUND");
    // Ten connections opened first, then a request written on each in one go: each gets its own answer.
    const sockets = await Promise.all(
      Array.from(
        { length: 10 },
        () =>
          new Promise<Socket>((resolve) => {
            const socket: Socket = tlsTo(harness!)(() => resolve(socket));
          }),
      ),
    );
    const together = sockets.map(
      (socket) =>
        new Promise<string>((resolve, reject) => {
          let text = "";
          socket
            .on("data", (chunk) => (text += chunk))
            .on("end", () => resolve(text))
            .on("error", reject);
        }),
    );
    sockets.forEach((socket, i) => socket.write(byPhone(i % 3, true)));
    expect((await Promise.all(together)).map((text) => (answersIn(text)[0]!.body as { contact: { phone: string } }).contact.phone)).toEqual(
      sockets.map((_, i) => phones[i % 3]),
    );
  });

  it("on one connection, a request that is not HTTP, or one a fault rule drops, comes after the answers to the requests before it", async () => {
    // The lookup is slow: what follows it must still wait for its answer.
    harness = await startHarness({
      faults: [
        { operationId: "findContact", latencyMs: 300 },
        { operationId: "createContact", drop: true },
      ],
    });
    const lookup = find("email=nobody%40example.com");
    for (const refused of [NOT_HTTP, `GET /v1/contacts HTTP/1.1\r\nx-pad: ${"a".repeat(70_000)}\r\n\r\n`]) {
      const answers = answersIn(await exchange(tlsTo(harness), lookup + refused));
      expect(
        answers.map((a) => a.status),
        refused.slice(0, 20),
      ).toEqual([404, 400]);
    }
    // Bytes arriving while the refusal waits make node report the error again: still one refusal.
    const journalBefore = ((await harness.admin("GET", "/journal")).body as unknown[]).length;
    const again = await new Promise<string>((resolve) => {
      let text = "";
      const socket = tlsTo(harness!)(() => {
        socket.write(lookup + NOT_HTTP);
        setTimeout(() => socket.writable && socket.write("MORE BYTES\r\n\r\n"), 30);
      });
      // A reset after the server closed is no failure here: what it answered is what counts.
      socket
        .on("data", (chunk) => (text += chunk))
        .on("close", () => resolve(text))
        .on("error", () => {});
    });
    expect(answersIn(again).map((a) => a.status)).toEqual([404, 400]);
    const journal = (await harness.admin("GET", "/journal")).body as Array<{ status: number }>;
    // Journaled as each was handled: the refusal before the slow lookup.
    expect(journal.slice(journalBefore).map((entry) => entry.status)).toEqual([400, 404]);
    const create = JSON.stringify({ phone: "+14155550101" });
    const dropped = `POST /v1/contacts?apiKey=${KEYS.acme} HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: ${create.length}\r\n\r\n${create}`;
    const answers = answersIn(await exchange(tlsTo(harness), lookup + dropped));
    expect(answers.map((a) => a.status)).toEqual([404]);
    expect((await harness.admin("GET", "/contacts")).body).toHaveLength(0);
  });

  it("refuses a certificate given without its key, or a key without its certificate, and listens on nothing", async () => {
    const intake = createIntake({ seed: SEED });
    try {
      for (const half of [{ certFile: "cert.pem" }, { keyFile: "key.pem" }]) {
        await expect(serve(intake, { port: 0, ...half })).rejects.toThrow("--tls-cert and --tls-key go together: give both files.");
      }
    } finally {
      await intake.close();
    }
  });

  it("close() writes the answers already made before it cuts the connections", async () => {
    const intake = createIntake({ seed: SEED });
    let closed: Promise<void> | undefined;
    // Called as soon as the answer is made, as a SIGTERM handled then would.
    const core = internals(intake);
    const closing = {
      ...core,
      handle: async (request: Parameters<typeof core.handle>[0]) => {
        const answer = await core.handle(request);
        process.nextTick(() => (closed = server.close()));
        return answer;
      },
    };
    const server = await serveCore(closing, { port: 0 });
    try {
      const answer = await exchange(tlsTo({ server }), find("email=nobody%40example.com"));
      expect(answer).toMatch(/^HTTP\/1\.1 404 /);
    } finally {
      await (closed ?? server.close());
      await intake.close();
    }
  });

  it("answers while a test's fake timers are installed, whether installed before or after the server loads", async () => {
    const intake = createIntake({ seed: SEED });
    const server = await serve(intake, { port: 0 });
    vi.useFakeTimers();
    try {
      expect(await exchange(tlsTo({ server }), find("email=nobody%40example.com", true))).toMatch(/^HTTP\/1\.1 404 /);
    } finally {
      vi.useRealTimers();
      await server.close();
      await intake.close();
    }
    // Timers faked before the server loads (a test runner's global set-up), with a setImmediate that never runs.
    // Like real fakes (@sinonjs/fake-timers), it returns a timer that can be unref'd: tsx calls
    // setImmediate(...).unref() when it first writes its cache, which a fresh machine's cold cache does.
    const script = `
      const never = () => ({ ref() { return this; }, unref() { return this; }, hasRef: () => false });
      globalThis.setImmediate = never;
      (await import("node:module")).createRequire(import.meta.url)("node:timers").setImmediate = never;
      const { startIntakeServer } = await import("@intake/server/testing");
      const { request } = await import("node:https");
      const intake = await startIntakeServer({});
      request(intake.baseUrl + "/contacts?email=a%40example.com", { ca: intake.connection.certificate }, (res) => {
        console.log(res.statusCode);
        res.resume().on("end", () => process.exit(0));
      }).end();
      setTimeout(() => process.exit(3), 5000);
    `;
    // Against the sources, as the rest of the suite (not a build that may be stale). Compiling them with a
    // cold tsx cache takes 6-12 s here: the child is given a minute, and the worker is not blocked meanwhile.
    const child = await new Promise<{ status: unknown; out: string; err: string }>((resolve) => {
      const args = ["--conditions=@intake/source", "--import", "tsx", "--input-type=module", "-e", script];
      execFile(process.execPath, args, { cwd: fileURLToPath(new URL(".", import.meta.url)), timeout: 60_000 }, (error, out, err) =>
        resolve({ status: error ? (error.killed ? "killed at the time limit" : error.code) : 0, out, err }),
      );
    });
    expect({ status: child.status, out: child.out.trim() }, quoted(child.err)).toEqual({ status: 0, out: "401" });
  }, 90_000);

  it("closes a connection it refused both ways, even when the client keeps its own side open", async () => {
    harness = await startHarness();
    const socket = connect({ port: harness.server.port, host: "127.0.0.1", allowHalfOpen: true });
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk));
    await new Promise((resolve) => socket.once("end", resolve).write(NOT_HTTP));
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    // Had the server only ended its side, these writes would be taken in for ever. It reads and
    // drops them for a while (closed at once, it would reset its answer away), then closes the
    // connection, and a write after that is reset.
    const closed = new Promise((resolve) => socket.once("close", resolve));
    socket.on("error", () => {});
    for (let i = 0; i < 80 && !socket.destroyed; i++) {
      socket.write("more\r\n");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await expect(
      Promise.race([closed.then(() => "closed"), new Promise((resolve) => setTimeout(() => resolve("still open"), 1000))]),
    ).resolves.toBe("closed");
  });

  it("does not wait for ever on a client: silence and a request line left unfinished are closed after headersTimeoutMs", async () => {
    const intake = createIntake({ seed: SEED });
    const server = await serve(intake, { port: 0, headersTimeoutMs: 300 });
    try {
      const open = (send?: string) =>
        new Promise<{ answer: string; ms: number }>((resolve, reject) => {
          const started = Date.now();
          let answer = "";
          const socket: Socket = connect(server.port, "127.0.0.1", () => send && socket.write(send));
          socket
            .on("data", (chunk) => (answer += chunk))
            .on("close", () => resolve({ answer, ms: Date.now() - started }))
            .on("error", reject);
          setTimeout(() => reject(new Error("the connection is still open after 5 s")), 5000).unref();
        });
      const [silent, unfinished] = await Promise.all([open(), open("POST /v1/incoming_custom_channel_message HTTP/1.1\r\nHost: x\r\n")]);
      expect(silent.answer).toBe("");
      expect(unfinished.answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      for (const { ms } of [silent, unfinished]) expect(ms).toBeGreaterThanOrEqual(250);
    } finally {
      await server.close();
      await intake.close();
    }
  });

  it("a key header sent twice is refused, not read as its first copy; a request refused before its body is read is answered all the same", async () => {
    harness = await startHarness({ maxBodyBytes: 1_000 });
    const one = await send("GET", "/v1/contacts?email=a%40example.com", { authorization: `Bearer ${KEYS.acme}` });
    expect(one.status).toBe(404);
    const twice = await send("GET", "/v1/contacts?email=a%40example.com", {
      authorization: [`Bearer ${KEYS.acme}`, "Bearer ik_someone_else_000000001"],
    });
    expect(twice.status).toBe(401);
    expect(JSON.parse(twice.body).error.code).toBe("INVALID_API_KEY");
    // Not read (nor refused as too large, which would close the connection): the connection is used again.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const unread = await send(
        "POST",
        "/v1/contacts",
        { "content-type": "application/json" },
        JSON.stringify({ phone: "+14155550100", firstName: "x".repeat(50_000) }),
        agent,
      );
      expect(unread.status).toBe(401);
      expect(JSON.parse(unread.body).error.code).toBe("MISSING_API_KEY");
      const next = await send("GET", "/v1/contacts?email=a%40example.com", { authorization: `Bearer ${KEYS.acme}` }, undefined, agent);
      expect(next).toMatchObject({ status: 404, reused: true });
    } finally {
      agent.destroy();
    }
    expect((await harness.admin("GET", "/contacts")).body).toHaveLength(0);
  });

  it("a failure of its own is answered 500 in the route's shape and reported to onError, the key kept out, even when onError throws", async () => {
    const { intake, errors, console_ } = rethrowingIntake();
    const server = await serveCore({ ...internals(intake), handle: () => Promise.reject(new Error("boom")) }, { port: 0 });
    const dispatcher = new UndiciAgent({ connect: { ca: server.certificate } });
    const send = (path: string, init: RequestInit = {}) => fetch(`${server.origin}${path}`, { ...init, dispatcher } as RequestInit);
    try {
      const receive = await send(`/v1/incoming_custom_channel_message?apiKey=${KEYS.acme}`, { method: "POST", body: "{}" });
      expect(receive.status).toBe(500);
      expect(await receive.json()).toEqual({ error: "Internal error. Retry later." });
      const find = await send(`/v1/contacts?apiKey=${KEYS.acme}&email=a%40example.com`);
      expect(await find.json()).toEqual({ error: { code: "INTERNAL_ERROR", message: "Internal error. Retry later." } });
      expect(errors.map((e) => (e as Error).message)).toEqual([
        "The node adapter could not answer POST /v1/incoming_custom_channel_message.",
        "The node adapter could not answer GET /v1/contacts.",
      ]);
      expect((errors[0] as Error).cause).toMatchObject({ message: "boom" });
      expect(console_).toHaveBeenCalledTimes(2);
      expect(console_.mock.calls[0]![0]).toBe("intake: onError threw");
    } finally {
      console_.mockRestore();
      await dispatcher.close();
      await server.close();
      await intake.close();
    }
  });
});

describe("the node adapter, when the core fails on a request node could not parse", () => {
  it("answers 400 in the route's shape itself, closes the connection and reports to onError", async () => {
    const { intake, errors, console_ } = rethrowingIntake();
    const server = await serveCore({ ...internals(intake), handle: () => Promise.reject(new Error("boom")) }, { port: 0 });
    const answer = (request: string) => exchange(plainTo(server.port), request);
    try {
      const garbage = await answer(NOT_HTTP);
      expect(garbage).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n[^]*connection: close\r\n\r\n/);
      expect(bodyOf(garbage)).toEqual({ error: { code: "VALIDATION_ERROR", message: "The request is not valid HTTP." } });
      const receive = await answer("POST /v1/incoming_custom_channel_message HTTP/1.1\r\nhost: x\r\nnot a header\r\n\r\n");
      expect(bodyOf(receive)).toEqual({ error: "The request is not valid HTTP." });
      expect(errors.map((e) => (e as Error).message)).toEqual([
        "The node adapter could not answer a request it could not parse.",
        "The node adapter could not answer a request it could not parse.",
      ]);
      expect((errors[0] as Error).cause).toMatchObject({ message: "boom" });
    } finally {
      console_.mockRestore();
      await server.close();
      await intake.close();
    }
  });
});

const NOT_HTTP = "HELLO THERE\r\n\r\n";

/** Sends raw bytes on a connection `open` makes (plain or TLS) and reads the answer until the server closes it. */
function exchange(open: (onConnect: () => void) => Socket, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = open(() => socket.write(request));
    let text = "";
    socket
      .on("data", (chunk) => (text += chunk))
      .on("end", () => resolve(text))
      .on("error", reject);
  });
}
const plainTo = (port: number) => (onConnect: () => void) => connect(port, "127.0.0.1", onConnect);
/** The JSON body of a raw HTTP answer. */
const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4));
/** A lookup as raw HTTP, the last on its connection when `last`. */
const find = (query: string, last = false) =>
  `GET /v1/contacts?apiKey=${KEYS.acme}&${query} HTTP/1.1\r\nhost: localhost\r\n${last ? "connection: close\r\n" : ""}\r\n`;
/** Opens a TLS connection to a running server (for `exchange`). */
const tlsTo =
  ({ server }: { server: { port: number; certificate: string } }) =>
  (onConnect: () => void) =>
    tlsConnect({ port: server.port, host: "127.0.0.1", ca: server.certificate, servername: "localhost" }, onConnect);
/** The answers in a connection's raw bytes, one after another, each framed by its Content-Length. */
function answersIn(text: string): Array<{ status: number; body: unknown }> {
  const answers = [];
  for (let at = 0; at < text.length;) {
    const headEnd = text.indexOf("\r\n\r\n", at);
    const head = text.slice(at, headEnd);
    const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)![1]);
    answers.push({ status: Number(head.slice(9, 12)), body: JSON.parse(text.slice(headEnd + 4, headEnd + 4 + length)) });
    at = headEnd + 4 + length;
  }
  return answers;
}
