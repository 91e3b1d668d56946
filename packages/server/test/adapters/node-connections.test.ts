// The node adapter against clients that do not speak HTTP as expected: bodies node cannot frame,
// requests node would answer itself, uploads given up on, slow clients, too many connections; and
// a stop under load.
// Raw sockets to 127.0.0.1, over TLS and plain TCP.
import { createIntake, type IntakeOptions } from "@intake/server";
import { openDataFile, persist, serve, type RunningServer, type ServeOptions } from "@intake/server/node";
import { mkdtempSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect as tlsConnect } from "node:tls";
import { isDeepStrictEqual } from "node:util";
import { Agent } from "undici";
import { afterEach, describe, expect, it, vi } from "vitest";
import { KEYS, SEED } from "../support/seed.js";

const ADMIN_TOKEN = "adm_test_token_0123456789";
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (stops.length) await stops.pop()!();
});

/** A server on a free port, with onError kept (and the console watched) rather than printed. */
async function start(serveOptions: ServeOptions = {}, options: IntakeOptions = {}) {
  const errors: unknown[] = [];
  const intake = createIntake({ seed: SEED, adminToken: ADMIN_TOKEN, onError: (e) => errors.push(e), ...options });
  const server = await serve(intake, { port: 0, ...serveOptions });
  stops.push(async () => {
    await server.close();
    await intake.close();
  });
  const journal = async () => {
    const answer = await exchange(
      tlsTo(server),
      `GET /__admin/journal HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${ADMIN_TOKEN}\r\nconnection: close\r\n\r\n`,
    );
    return JSON.parse(bodyText(answer.text)) as Array<{ path: string; status: number; errorCode: string | null; id: string }>;
  };
  return { server, errors, journal };
}

type Open = (onConnect: () => void) => Socket;
const tlsTo =
  (server: RunningServer): Open =>
  (onConnect) =>
    tlsConnect({ port: server.port, host: "127.0.0.1", ca: server.certificate, servername: "localhost" }, onConnect);
const plainTo =
  (server: RunningServer): Open =>
  (onConnect) =>
    connect(server.port, "127.0.0.1", onConnect);

/**
 * Writes `request` on a new connection and reads until the server closes it, or `limitMs` pass
 * (then `open` is true and the connection is cut here).
 */
function exchange(open: Open, request: string | Buffer, limitMs = 5000): Promise<{ text: string; open: boolean; ms: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = open(() => socket.write(request));
    let text = "";
    const limit = setTimeout(() => {
      resolve({ text, open: true, ms: Date.now() - started });
      socket.destroy();
    }, limitMs);
    socket.on("data", (chunk: Buffer) => (text += chunk.toString("latin1")));
    // A reset once the server has answered and closed counts as closed.
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(limit);
      resolve({ text, open: false, ms: Date.now() - started });
    });
  });
}

const bodyText = (answer: string) => answer.slice(answer.indexOf("\r\n\r\n") + 4);
const statusOf = (answer: string) => Number(answer.slice(9, 12));
const requestIdOf = (answer: string) => /\r\nx-request-id: (req_\w+)\r\n/i.exec(answer)?.[1];

/** What a refused request must look like: its status, the body in its route's shape, a request id, the connection closed. */
function expectAnswer(answer: { text: string; open: boolean }, status: number, body: unknown) {
  expect(answer.open, answer.text.slice(0, 200)).toBe(false);
  expect(statusOf(answer.text), answer.text.slice(0, 200)).toBe(status);
  expect(requestIdOf(answer.text)).toMatch(/^req_/);
  expect(answer.text).toMatch(/\r\nconnection: close\r\n/i);
  expect(JSON.parse(bodyText(answer.text))).toEqual(body);
}

const CONTACTS = `/v1/contacts?apiKey=${KEYS.acme}`;
const RECEIVE = `/v1/incoming_custom_channel_message?apiKey=${KEYS.acme}`;
const head = (method: string, target: string, headers: string[]) =>
  `${method} ${target} HTTP/1.1\r\n${headers.map((h) => `${h}\r\n`).join("")}\r\n`;
const general = (code: string, message: string) => ({ error: { code, message } });

describe("a request body node cannot frame", () => {
  it("is answered 400 in its route's shape with a request id, and the connection closed, not held", async () => {
    const { server, errors, journal } = await start();
    const notHttp = "The request is not valid HTTP.";
    const cases = [
      // A chunk size that is not hexadecimal.
      [CONTACTS, ["transfer-encoding: chunked"], "zz\r\nabc\r\n"],
      // A Transfer-Encoding node does not frame.
      [CONTACTS, ["transfer-encoding: xchunked"], "abc"],
    ] as const;
    for (const [target, framing, body] of cases) {
      for (const [path, shape] of [
        [target, general("VALIDATION_ERROR", notHttp)],
        [RECEIVE, { error: notHttp }],
      ] as const) {
        const answer = await exchange(tlsTo(server), head("POST", path, ["host: x", "content-type: application/json", ...framing]) + body);
        expectAnswer(answer, 400, shape);
      }
    }
    // On the plain-HTTP side the core refuses it for its scheme, and the connection closes all the same.
    const plain = await exchange(
      plainTo(server),
      head("POST", CONTACTS, ["host: x", "content-type: application/json", "transfer-encoding: chunked"]) + "zz\r\n",
    );
    expectAnswer(plain, 400, { error: expect.objectContaining({ code: "HTTPS_REQUIRED" }) });
    // One answer each, journaled with its request id.
    const kept = await journal();
    expect(kept.slice(-5).map((entry) => [entry.path, entry.status, entry.errorCode])).toEqual([
      ["/v1/contacts", 400, "VALIDATION_ERROR"],
      ["/v1/incoming_custom_channel_message", 400, "VALIDATION_ERROR"],
      ["/v1/contacts", 400, "VALIDATION_ERROR"],
      ["/v1/incoming_custom_channel_message", 400, "VALIDATION_ERROR"],
      ["/v1/contacts", 400, "HTTPS_REQUIRED"],
    ]);
    expect(errors).toEqual([]);
  });

  it("after the core answered without reading it, closes the connection with no second answer", async () => {
    const { server } = await start();
    // No key: refused before the body is read; the bad chunk comes after.
    const answer = await exchange(
      tlsTo(server),
      head("POST", "/v1/contacts", ["host: x", "content-type: application/json", "transfer-encoding: chunked"]) + "zz\r\n",
    );
    expect(answer.open).toBe(false);
    expect(answer.text.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    expect(statusOf(answer.text)).toBe(401);
  });
});

/** How a connection ended: the server closed it (a FIN, after what it wrote), reset it, or left it open past the limit. */
type Ending = "closed" | "reset" | "open";

/**
 * Writes `request` on a new connection, in one write or (with `piece`) a write of that many bytes
 * every millisecond or so, stopping once the server has closed, and reads until the connection
 * ends. A reset after the server's FIN counts as closed: everything it sent before has arrived.
 */
function converse(open: Open, request: string, piece = 0, limitMs = 5000): Promise<{ text: string; ending: Ending; detail: string }> {
  return new Promise((resolve) => {
    const bytes = Buffer.from(request, "latin1");
    let text = "";
    let ending: Ending | undefined;
    const finish = (how: Ending, detail = "") => {
      if (ending) return;
      ending = how;
      clearTimeout(limit);
      resolve({ text, ending: how, detail });
      socket.destroy();
    };
    const socket = open(async () => {
      socket.setNoDelay(true);
      if (!piece) return void socket.write(bytes);
      for (let at = 0; at < bytes.length && !ending && !socket.writableEnded; at += piece) {
        socket.write(bytes.subarray(at, at + piece));
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    });
    const limit = setTimeout(() => finish("open"), limitMs);
    socket.on("data", (chunk: Buffer) => (text += chunk.toString("latin1")));
    socket.on("end", () => finish("closed"));
    socket.on("error", (error: NodeJS.ErrnoException) => finish("reset", error.code ?? error.message));
  });
}

describe("malformed framing, in one write and in pieces", () => {
  const post = (headers: string[], body: string) =>
    head("POST", CONTACTS, ["host: x", "content-type: application/json", ...headers]) + body;
  const chunked = (body: string) => post(["transfer-encoding: chunked"], body);
  const notHttp = ["VALIDATION_ERROR", "The request is not valid HTTP."] as const;
  const tooLarge = ["PAYLOAD_TOO_LARGE", "The request's URL and headers are larger than the server accepts (16 KiB)."] as const;
  // Each with the answer it gets over HTTPS (status, error code and message), as reference-behaviour.md says.
  const cases: Array<[string, string, number, readonly [string, string]]> = [
    ["a chunk size that is not hexadecimal", chunked("zz\r\nabc\r\n0\r\n\r\n"), 400, notHttp],
    ["a chunk size past 64 bits", chunked(`1${"0".repeat(17)}\r\nabc\r\n0\r\n\r\n`), 400, notHttp],
    [
      "a chunk extension over 16 KiB",
      chunked(`2;ext=${"a".repeat(17_000)}\r\n{}\r\n0\r\n\r\n`),
      400,
      ["PAYLOAD_TOO_LARGE", "The request body's chunk extensions are larger than the server accepts (16 KiB)."],
    ],
    ["chunk data longer than its size", chunked("2\r\n{}}\r\n0\r\n\r\n"), 400, notHttp],
    ["a Transfer-Encoding other than chunked", post(["transfer-encoding: gzip"], "abc"), 400, notHttp],
    ["chunked, then another coding", post(["transfer-encoding: chunked, gzip"], "2\r\n{}\r\n0\r\n\r\n"), 400, notHttp],
    [
      "Transfer-Encoding and Content-Length",
      post(["transfer-encoding: chunked", "content-length: 7"], "2\r\n{}\r\n0\r\n\r\n"),
      400,
      notHttp,
    ],
    ["two Content-Lengths that differ", post(["content-length: 2", "content-length: 3"], "{}"), 400, notHttp],
    ["a Content-Length that is not a number", post(["content-length: 2x"], "{}"), 400, notHttp],
    ["a header line without a colon", post(["content-length: 2", "x-broken header"], "{}"), 400, notHttp],
    ["a space before a header's colon", post(["content-length : 2"], "{}"), 400, notHttp],
    ["a control character in a header value", post(["content-length: 2", "x-a: a\u0001b"], "{}"), 400, notHttp],
    ["a header folded onto a second line", post(["content-length: 2", "x-a: 1", " folded"], "{}"), 400, notHttp],
    ["URL and headers past 64 KiB", post(["content-length: 2", `x-pad: ${"a".repeat(70_000)}`], "{}"), 400, tooLarge],
    ["lines ended by a bare LF", post(["content-length: 2"], "{}").replaceAll("\r\n", "\n"), 400, notHttp],
    ["a method that is not a token", `P@ST ${CONTACTS} HTTP/1.1\r\nhost: x\r\n\r\n`, 400, notHttp],
    ["a space in the target", `GET /v1/con tacts HTTP/1.1\r\nhost: x\r\n\r\n`, 400, notHttp],
    ["an HTTP version past 1.1", `GET /v1/contacts HTTP/3.0\r\nhost: x\r\n\r\n`, 400, notHttp],
    ["bytes that are not HTTP", "\u0000\u0001\u0002 hello\r\n\r\n", 400, notHttp],
  ];

  it("each gets its 400 in the route's shape over HTTPS, then a clean close (a FIN, not a reset)", { timeout: 60_000 }, async () => {
    const { server, errors } = await start();
    const runs = cases.flatMap(([name, request, status, [code, message]]) =>
      [0, request.length > 10_000 ? 1024 : 3].map(async (piece) => {
        const answer = await converse(tlsTo(server), request, piece);
        const how = `${name}, ${piece ? `in pieces of ${piece} bytes` : "in one write"}: ${answer.ending} ${answer.detail} ${JSON.stringify(answer.text.slice(0, 120))}`;
        return {
          how,
          got: [
            answer.ending,
            answer.text.match(/HTTP\/1\.1 /g)?.length ?? 0,
            statusOf(answer.text),
            answer.text.includes("\r\n\r\n") ? JSON.parse(bodyText(answer.text)) : null,
          ],
          wanted: ["closed", 1, status, general(code, message)],
        };
      }),
    );
    // Every case that went otherwise, at once.
    const failures = (await Promise.all(runs)).filter(({ got, wanted }) => !isDeepStrictEqual(got, wanted));
    expect(failures.map(({ how, got }) => `${how} -> ${JSON.stringify(got)}`)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("on the plain-HTTP side each gets one 400 too (HTTPS_REQUIRED, or not HTTP), then a clean close", { timeout: 60_000 }, async () => {
    const { server, errors } = await start();
    const runs = cases.flatMap(([name, request]) =>
      [0, request.length > 10_000 ? 1024 : 3].map(async (piece) => {
        const answer = await converse(plainTo(server), request, piece);
        const how = `${name}, ${piece ? `in pieces of ${piece} bytes` : "in one write"}: ${answer.ending} ${answer.detail} ${JSON.stringify(answer.text.slice(0, 120))}`;
        return {
          how,
          got: [answer.ending, answer.text.match(/HTTP\/1\.1 /g)?.length ?? 0, statusOf(answer.text)],
          wanted: ["closed", 1, 400],
        };
      }),
    );
    // Every case that went otherwise, at once.
    const failures = (await Promise.all(runs)).filter(({ got, wanted }) => !isDeepStrictEqual(got, wanted));
    expect(failures.map(({ how, got }) => `${how} -> ${JSON.stringify(got)}`)).toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe("requests node would answer itself", () => {
  it("are answered by the core, in the route's shape where the path is known, with a request id", async () => {
    const { server, errors } = await start();
    // Refused as the adapter's refusals are, before anything else: on the plain-HTTP side of the port too.
    for (const open of [tlsTo(server), plainTo(server)]) {
      // HTTP/1.1 without Host: node's own answer is an empty 400.
      expectAnswer(
        await exchange(open, head("GET", `/v1/contacts?apiKey=${KEYS.acme}&email=a%40example.com`, [])),
        400,
        general("VALIDATION_ERROR", "An HTTP/1.1 request must have a Host header."),
      );
      expectAnswer(await exchange(open, head("POST", RECEIVE, ["content-type: application/json", "content-length: 2"]) + "{}"), 400, {
        error: "An HTTP/1.1 request must have a Host header.",
      });
      // An Expect other than 100-continue: node's own is an empty 417.
      const expectation = "The server meets no Expect but 100-continue.";
      expectAnswer(
        await exchange(
          open,
          head("POST", CONTACTS, ["host: x", "expect: 200-ok", "content-type: application/json", "content-length: 2"]) + "{}",
        ),
        417,
        general("VALIDATION_ERROR", expectation),
      );
      expectAnswer(
        await exchange(
          open,
          head("POST", RECEIVE, ["host: x", "expect: 200-ok", "content-type: application/json", "content-length: 2"]) + "{}",
        ),
        417,
        { error: expectation },
      );
    }
    // CONNECT: node closes the connection with no answer at all. Refused on either side of the port.
    for (const open of [tlsTo(server), plainTo(server)]) {
      const answer = await exchange(open, head("CONNECT", "example.com:443", ["host: example.com:443"]));
      expectAnswer(answer, 400, general("VALIDATION_ERROR", "CONNECT is not served: this is the API, not a proxy."));
    }
    expect(errors).toEqual([]);
  });

  it("a head past node's own limit (64 KiB) on the receive endpoint is refused in its string shape, on a new connection", async () => {
    const { server } = await start();
    const tooLarge = "The request's URL and headers are larger than the server accepts (16 KiB).";
    const huge =
      head("POST", RECEIVE, ["host: x", `x-pad: ${"a".repeat(70_000)}`, "content-type: application/json", "content-length: 2"]) + "{}";
    expectAnswer(await exchange(tlsTo(server), huge), 400, { error: tooLarge });
    expectAnswer(await exchange(tlsTo(server), huge.replace(RECEIVE, CONTACTS)), 400, general("PAYLOAD_TOO_LARGE", tooLarge));
    // After a request on the same connection the line is no longer known: the general shape.
    const after = await exchange(tlsTo(server), head("GET", "/v1/contacts?email=a%40example.com", ["host: x"]) + huge);
    expect(after.text.match(/HTTP\/1\.1 (\d+)/g)).toEqual(["HTTP/1.1 401", "HTTP/1.1 400"]);
    expect(JSON.parse(after.text.slice(after.text.lastIndexOf("\r\n\r\n") + 4))).toEqual(general("PAYLOAD_TOO_LARGE", tooLarge));
  });
});

/** Until `check` holds, or `limitMs` pass. */
async function until(check: () => Promise<boolean>, limitMs = 5000) {
  const deadline = Date.now() + limitMs;
  while (!(await check()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe("an upload the client gives up on", () => {
  it("is no unexpected error: nothing reaches onError or the console, and the journal says the body did not arrive whole", async () => {
    const console_ = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const { server, errors, journal } = await start();
      const uploads = Array.from(
        { length: 20 },
        (_, i) =>
          new Promise<void>((resolve) => {
            // Node says 100 Continue as it hands the request over: the client leaves once the server has it.
            const socket = tlsTo(server)(() =>
              socket.write(
                head("POST", i % 2 ? RECEIVE : CONTACTS, [
                  "host: x",
                  "content-type: application/json",
                  "content-length: 1000",
                  "expect: 100-continue",
                ]),
              ),
            );
            socket.once("data", () => {
              socket.write('{"phone": "+1415');
              setTimeout(
                () => {
                  socket.destroy();
                  resolve();
                },
                i % 4 < 2 ? 0 : 50,
              );
            });
            socket.on("error", () => {});
          }),
      );
      await Promise.all(uploads);
      let kept: Awaited<ReturnType<typeof journal>> = [];
      await until(async () => (kept = await journal()).length >= 20);
      expect(kept.map((entry) => [entry.status, entry.errorCode])).toEqual(Array.from({ length: 20 }, () => [400, "VALIDATION_ERROR"]));
      expect(errors).toEqual([]);
      expect(console_).not.toHaveBeenCalled();
    } finally {
      console_.mockRestore();
    }
  });
});

describe("slow clients", () => {
  it("a TLS handshake left unfinished is closed after headersTimeoutMs", async () => {
    const { server } = await start({ headersTimeoutMs: 300 });
    // A handshake record announcing 512 bytes, of which 2 come.
    const partial = Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00]);
    const answers = await Promise.all(Array.from({ length: 20 }, () => exchange(plainTo(server), partial)));
    for (const answer of answers) {
      expect(answer.open).toBe(false);
      expect(answer.ms).toBeGreaterThanOrEqual(250);
    }
  });

  it("a request line and headers that trickle in get their 408 soon after headersTimeoutMs, not up to a quarter later", async () => {
    const { server } = await start({ headersTimeoutMs: 4000 });
    // Ten clients 100 ms apart: were node's checks a second apart, one would start just after a check.
    const answers = await Promise.all(
      Array.from(
        { length: 10 },
        (_, i) =>
          new Promise<{ text: string; ms: number }>((resolve) => {
            setTimeout(() => {
              let started = 0;
              let text = "";
              let trickle: NodeJS.Timeout | undefined;
              const socket = tlsTo(server)(() => {
                started = Date.now();
                socket.write("POST /v1/contacts HTTP/1.1\r\nhost: x\r\nx-slow: ");
                trickle = setInterval(() => socket.writable && socket.write("a"), 100);
              });
              socket.on("data", (chunk: Buffer) => (text += chunk)).on("error", () => {});
              socket.once("data", () => resolve({ text, ms: Date.now() - started }));
              socket.on("close", () => {
                clearInterval(trickle);
                resolve({ text, ms: Date.now() - started });
              });
            }, 100 * i);
          }),
      ),
    );
    for (const { text, ms } of answers) {
      expect(text).toMatch(/^HTTP\/1\.1 408 /);
      expect(ms).toBeGreaterThanOrEqual(3950);
      expect(ms).toBeLessThan(4800);
    }
  });

  it("a body that stops arriving for headersTimeoutMs is answered 408 in its route's shape, and the connection closed", async () => {
    const { server, errors } = await start({ headersTimeoutMs: 300 });
    const stalled = "The request body stopped arriving: nothing came for 0.3 s.";
    for (const [path, body] of [
      [CONTACTS, general("VALIDATION_ERROR", stalled)],
      [RECEIVE, { error: stalled }],
    ] as const) {
      const answer = await exchange(
        tlsTo(server),
        head("POST", path, ["host: x", "content-type: application/json", "content-length: 100"]) + '{"phone"',
      );
      expectAnswer(answer, 408, body);
      expect(answer.ms).toBeGreaterThanOrEqual(250);
    }
    expect(errors).toEqual([]);
  });

  it("a body that trickles in is answered 408 once the request has taken requestTimeoutMs", async () => {
    // Silent for at most 100 ms at a time, far below headersTimeoutMs even on a loaded machine.
    const { server, errors } = await start({ headersTimeoutMs: 1000, requestTimeoutMs: 1500 });
    const answer = await new Promise<{ text: string; open: boolean; ms: number }>((resolve) => {
      const started = Date.now();
      let text = "";
      let trickle: NodeJS.Timeout | undefined;
      const socket = tlsTo(server)(() => {
        socket.write(head("POST", CONTACTS, ["host: x", "content-type: application/json", "content-length: 1000"]));
        // A byte every 100 ms: never silent for long, never done.
        trickle = setInterval(() => socket.writable && socket.write(" "), 100);
      });
      const limit = setTimeout(() => socket.destroy(), 5000);
      socket.on("data", (chunk: Buffer) => (text += chunk)).on("error", () => {});
      socket.on("close", () => {
        clearInterval(trickle);
        clearTimeout(limit);
        resolve({ text, open: Date.now() - started >= 5000, ms: Date.now() - started });
      });
    });
    expectAnswer(answer, 408, general("VALIDATION_ERROR", "The request took longer than the server allows to arrive."));
    expect(answer.ms).toBeGreaterThanOrEqual(1400);
    expect(errors).toEqual([]);
  });
});

describe("the connection cap", () => {
  it("closes connections past maxConnections as they come; one freed is taken again", async () => {
    const { server } = await start({ maxConnections: 2, maxConnectionsPerClient: 2 });
    const held = await Promise.all(
      [0, 1].map(
        () =>
          new Promise<Socket>((resolve) => {
            const socket: Socket = tlsTo(server)(() => resolve(socket));
          }),
      ),
    );
    const lookup = head("GET", "/v1/contacts?email=a%40example.com", ["host: x", "connection: close"]);
    const refused = await exchange(plainTo(server), lookup, 2000);
    expect(refused).toMatchObject({ text: "", open: false });
    held[0]!.destroy();
    // The server sees the freed connection go shortly after.
    let again = { text: "", open: false, ms: 0 };
    await until(async () => statusOf((again = await exchange(tlsTo(server), lookup)).text) === 401);
    expect(statusOf(again.text)).toBe(401);
    held[1]!.destroy();
  });

  it("keeps a share for others: one client holding all it can with bodies that trickle leaves the rest to others, the admin API included", async () => {
    const { server } = await start({ maxConnections: 4 });
    // One client (127.0.0.1) opens as many as the cap, each an upload that trickles in: never stalled, never done.
    const trickles: NodeJS.Timeout[] = [];
    const opened = await Promise.all(
      [0, 1, 2, 3].map(
        () =>
          new Promise<Socket | undefined>((resolve) => {
            const socket: Socket = tlsTo(server)(() => {
              socket.write(head("POST", CONTACTS, ["host: x", "content-type: application/json", "content-length: 100000"]));
              trickles.push(setInterval(() => socket.writable && socket.write(" "), 100));
              resolve(socket);
            });
            socket.on("error", () => {}).on("close", () => resolve(undefined));
          }),
      ),
    );
    const held = opened.filter((socket) => socket !== undefined);
    try {
      // Half of them are its share; the others were closed as they came, with no answer.
      expect(held).toHaveLength(2);
      const lookup = head("GET", "/v1/contacts?email=a%40example.com", ["host: x", "connection: close"]);
      expect(await exchange(plainTo(server), lookup, 2000)).toMatchObject({ text: "", open: false });
      // Another client (127.0.0.2, also loopback) is served, the admin API and the API both.
      const other: Open = (onConnect) =>
        tlsConnect(
          {
            socket: connect({ port: server.port, host: "127.0.0.1", localAddress: "127.0.0.2" }),
            ca: server.certificate,
            servername: "localhost",
          },
          onConnect,
        );
      const admin = await exchange(
        other,
        head("GET", "/__admin/journal", ["host: x", `authorization: Bearer ${ADMIN_TOKEN}`, "connection: close"]),
      );
      expect(statusOf(admin.text)).toBe(200);
      expect(statusOf((await exchange(other, lookup)).text)).toBe(401);
    } finally {
      for (const trickle of trickles) clearInterval(trickle);
      for (const socket of held) socket.destroy();
    }
  });
});

describe("a stop under load", () => {
  it(
    "answers every create it stored: 10 stops under concurrent keep-alive creates, then the data file holds only answered ones",
    { timeout: 60_000 },
    async () => {
      const path = join(mkdtempSync(join(tmpdir(), "intake-stop-")), "state.db");
      // Each phone sent, and what its client got: a status, or the error its request failed with.
      const outcomes = new Map<string, string>();
      const errors: unknown[] = [];
      let sent = 0;
      for (let stop = 0; stop < 10; stop++) {
        // As intake-server runs with --data-file, and stops on SIGTERM: the connections, the work in flight, the last save.
        const file = openDataFile(path, { durability: "normal" });
        const snapshot = file.read();
        const intake = createIntake({
          ...(snapshot ? { snapshot } : { seed: SEED }),
          adminToken: ADMIN_TOKEN,
          rateLimit: 0,
          onError: (e) => errors.push(e),
        });
        const persistence = persist(intake, file);
        const server = await serve(intake, { port: 0, dataFile: path });
        const dispatcher = new Agent({ connect: { ca: server.certificate, servername: "localhost" } });
        let stopped = false;
        let answered = 0;
        // The stop starts as an answer arrives, in the same phase of the event loop as the server's
        // reads (as a signal does, not as a timer): requests read then are still in the core.
        let closing: Promise<void> | undefined;
        const client = async () => {
          while (!stopped) {
            const phone = `+1415${2_000_000 + sent++}`;
            try {
              const init = { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ phone }), dispatcher };
              const response = await fetch(`${server.baseUrl}/contacts?apiKey=${KEYS.acme}`, init as RequestInit);
              await response.arrayBuffer();
              outcomes.set(phone, String(response.status));
              // Once creates flow, at a moment that moves from one stop to the next.
              if (++answered >= 20 + 10 * stop) closing ??= server.close();
            } catch (error) {
              const cause = (error as { cause?: { code?: string; message?: string } }).cause;
              outcomes.set(phone, cause?.code ?? cause?.message ?? String(error));
              await new Promise((resolve) => setTimeout(resolve, 5));
            }
          }
        };
        // Sixteen clients on kept-alive connections, sending on as the server stops.
        const clients = Array.from({ length: 16 }, client);
        while (!closing) await new Promise((resolve) => setTimeout(resolve, 5));
        await closing;
        await intake.close();
        persistence.stop();
        stopped = true;
        await Promise.all(clients);
        await dispatcher.close();
      }
      // What a restart from the data file loads.
      const file = openDataFile(path);
      const { contact } = file.read()!.records as unknown as { contact: Array<{ phone: string | null }> };
      const stored = new Set(contact.map((c) => c.phone ?? "").filter((phone) => phone.startsWith("+14152")));
      file.close();
      const storedUnanswered = [...stored]
        .filter((phone) => outcomes.get(phone) !== "201")
        .map((phone) => `${phone}: ${outcomes.get(phone)}`);
      expect(storedUnanswered).toEqual([]);
      // Nor is an answered create lost, and every answer is a create's.
      expect([...outcomes].filter(([phone, outcome]) => outcome === "201" && !stored.has(phone))).toEqual([]);
      expect([...outcomes.values()].filter((outcome) => /^\d+$/.test(outcome) && outcome !== "201")).toEqual([]);
      // The load ran through each stop: creates stored, and creates refused once the server was gone.
      expect(stored.size).toBeGreaterThanOrEqual(650);
      expect([...outcomes.values()].filter((outcome) => !/^\d+$/.test(outcome)).length).toBeGreaterThan(10);
      expect(errors).toEqual([]);
    },
  );
});
