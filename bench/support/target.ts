/**
 * One server under load, in its own process, so it and the load generator each have a core.
 * `node --import tsx bench/support/target.ts <kind> [contacts] [lists]` prints one JSON line
 * `{ "url": …, "certificate": … }` once listening, and serves until killed (or, started by
 * startTarget, until the benchmark that started it goes).
 *
 * Kinds: bare-http and bare-https answer a fixed JSON (the ceiling of node on this machine);
 * map-http answers lookups from two Maps of the seeded contacts (the anchor of bench/lookups.ts);
 * intake-https is the server as the CLI runs it; intake-proxied is the same server as it runs
 * behind a TLS-terminating proxy (plain HTTP, X-Forwarded-Proto trusted), to compare it with other
 * plain-HTTP servers. Intake is loaded from its build (dist), as users run it.
 */
import { createServer as createHttpServer, type IncomingMessage, type RequestListener, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo, Server } from "node:net";
import { createIntake, type Seed } from "@intake/server";
import { loadCertificate, serve } from "@intake/server/node";
import { FIXED_LOOKUP, benchSeed } from "./seed.js";

const kind = process.argv[2];
const contacts = Number(process.argv[3] ?? 1000);
const lists = Number(process.argv[4] ?? 1);

const FIXED = JSON.stringify(FIXED_LOOKUP);

function fixed(req: IncomingMessage, res: ServerResponse) {
  // Read the body, as any real handler must, then answer.
  req.resume();
  req.on("end", () => {
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(FIXED) });
    res.end(FIXED);
  });
}

/**
 * The anchor of bench/lookups.ts: the seed's contacts as plain records in two Maps (by phone, by
 * email), stored as Intake stores them (names and email trimmed, one creation time a millisecond),
 * and GET /v1/contacts answered with one Map get and JSON.stringify, with Intake's bytes: its
 * answer, its not-found answer and its headers. No key, validation or journal.
 */
function mapLookups(seed: Seed): RequestListener {
  const noFields = {};
  let stamp = { at: NaN, text: "" };
  const records = (seed.accounts?.[0]?.contacts ?? []).map((c) => {
    const now = Date.now();
    if (now !== stamp.at) stamp = { at: now, text: new Date(now).toISOString() };
    return {
      id: c.id,
      firstName: c.firstName?.trim(),
      lastName: c.lastName?.trim(),
      phone: c.phone,
      email: c.email?.trim(),
      customFields: noFields,
      createdAt: stamp.text,
    };
  });
  const byPhone = new Map(records.map((r) => [r.phone, r]));
  const byEmail = new Map(records.map((r) => [r.email, r]));
  let requests = 0;
  return (req, res) => {
    const { pathname, searchParams } = new URL(req.url ?? "/", "http://localhost");
    const phone = searchParams.get("phoneNumber");
    const email = searchParams.get("email");
    const lookup = pathname === "/v1/contacts";
    const record = !lookup ? undefined : phone === null ? byEmail.get(email ?? "") : byPhone.get(phone);
    // Built only when nothing is found, so a found lookup does no more than it must.
    const missing = () =>
      !lookup
        ? { code: "NOT_FOUND", message: `No operation at ${req.method} ${pathname}. Paths start with /v1/, for example /v1/contacts.` }
        : {
            code: "CONTACT_NOT_FOUND",
            message: phone === null ? `No contact with email ${email}.` : `No contact with phone number ${phone}.`,
          };
    const body = JSON.stringify(record ? { success: true, contactId: record.id, contact: record } : { error: missing() });
    res.writeHead(record ? 200 : 404, {
      "cache-control": "no-store",
      "content-length": Buffer.byteLength(body),
      "content-type": "application/json",
      // As long as Intake's request ids (a prefix and a base-36 count) for over two billion requests.
      "x-request-id": `req_anchor${(requests++).toString(36).padStart(6, "0")}`,
    });
    res.end(body);
  };
}

async function listen(server: Server, scheme: string) {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const intakeOptions = () => ({ seed: benchSeed(contacts, lists), rateLimit: 0 });
let url: string;
// The certificate an HTTPS target serves, for a client that must trust it.
let certificate: string | undefined;
switch (kind) {
  case "bare-http":
    url = await listen(createHttpServer(fixed), "http");
    break;
  case "bare-https": {
    const tls = await loadCertificate({ hosts: ["127.0.0.1"] });
    url = await listen(createHttpsServer({ cert: tls.cert, key: tls.key }, fixed as RequestListener), "https");
    certificate = tls.cert;
    break;
  }
  case "map-http": {
    const server = createHttpServer(mapLookups(benchSeed(contacts, lists)));
    url = await listen(server, "http");
    break;
  }
  case "intake-proxied": {
    // The port takes plain HTTP too: a proxy's requests, believed HTTPS by their X-Forwarded-Proto.
    const server = await serve(createIntake({ ...intakeOptions(), trustForwardedProto: true }), { port: 0 });
    url = server.origin.replace("https:", "http:");
    break;
  }
  case "intake-https": {
    const server = await serve(createIntake(intakeOptions()), { port: 0 });
    url = server.origin;
    certificate = server.certificate;
    break;
  }
  default:
    console.error(`Unknown kind ${kind}: bare-http, bare-https, map-http, intake-proxied or intake-https.`);
    process.exit(2);
}
process.stdout.write(`${JSON.stringify({ url, certificate })}\n`);
// A normal exit on a signal, so `--cpu-prof` writes its profile.
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => process.exit(0));
// Gone with the benchmark that started it, however that ended: startTarget hands it a pipe for
// stdin, which closes when the benchmark dies. Started any other way, it serves until killed.
if (process.env.BENCH_EXIT_WITH_STDIN === "1") process.stdin.on("end", () => process.exit(0)).resume();
