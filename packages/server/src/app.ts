/**
 * createIntake: the whole service as a fetch-style function, `(Request) => Promise<Response>`,
 * plus the admin service, the clock and close(). Nothing here is Node-specific: the msw handlers
 * wrap `fetch`; the node adapter hands requests to `handle`, the same function without the cost
 * of building fetch Requests and Responses.
 */
import { bodyChecker, createAdminApi, ADMIN_BASE } from "./admin/http.js";
import { createAdminService, type AdminService, type Seed, type Snapshot } from "./admin/service.js";
import { realClock, virtualClock, VIRTUAL_EPOCH, type Clock, type VirtualClock } from "./shared/clock.js";
import { createEngine, type Engine, type EngineOptions } from "./engine/index.js";
import { createEvents, type DomainEvents } from "./engine/events.js";
import { createApi } from "./http/api.js";
import { fromFetchRequest, toFetchResponse, type ApiRequest, type ApiResponse } from "./http/exchange.js";
import { Faults, type FaultRuleInput } from "./http/faults.js";
import { createRateLimiter } from "./http/rate-limit.js";
import { deterministicIds, randomIds, serialIds, type IdState } from "./shared/ids.js";
import { Journal } from "./http/journal.js";
import { Store, type Change } from "./store/store.js";
import { EventFeed, type Subscriber } from "./live/feed.js";
import { observeHappenings } from "./live/happenings.js";
import { STREAM_DEFAULTS, checkedLimits, eventStream } from "./live/sse.js";
import type { AnswerHold } from "./http/pipeline.js";

export interface IntakeOptions extends EngineOptions {
  /** Accounts, campaigns, lists and contacts to start with (and to go back to on reset). */
  seed?: Seed;
  /** A snapshot to start from instead of the seed (what a data file holds, or GET /__admin/snapshot gave). */
  snapshot?: Snapshot;
  /** The token /__admin requires. Default: a random one. */
  adminToken?: string;
  /** "real" (default), "virtual" (advanced through the admin API), or a clock of your own. */
  clock?: "real" | "virtual" | Clock;
  /** Where a virtual clock starts. Default 2026-01-01T00:00:00.000Z. */
  clockStart?: string | number;
  /**
   * Ids from counters, secrets from a seeded generator, time from a virtual clock: two runs of
   * the same test give byte-identical responses.
   */
  deterministic?: boolean | { seed?: number };
  /** Requests per API key per minute. Default 120; 0 turns the limit off. */
  rateLimit?: number;
  /** How many requests the journal keeps. Default 1000. */
  journalSize?: number;
  /** Largest request body. Default 32 MiB. */
  maxBodyBytes?: number;
  /**
   * Largest file one received message may embed as a data URL, decoded (a message carries one).
   * Default 5 MiB. Larger is 400.
   */
  maxMediaBytes?: number;
  /**
   * Most bytes of files (decoded data URLs) an account's stored messages may hold together; a
   * message that would go past it is 413. Default 256 MiB.
   */
  maxAccountMediaBytes?: number;
  /** How long an Idempotency-Key is remembered. Default 24 hours. */
  idempotencyTtlMs?: number;
  /** Believe X-Forwarded-Proto (behind a TLS-terminating proxy). Default false. */
  trustForwardedProto?: boolean;
  /** Unexpected errors (the client sees a plain 500). Default: console.error. */
  onError?: (error: unknown) => void;
  /** Fault rules to start with (and to go back to on reset); see PUT /__admin/faults. */
  faults?: FaultRuleInput[];
  /**
   * GET /__admin/events: how many of the latest events a reconnecting subscriber can replay
   * (default 1000), how many unread events a subscriber may stay behind for more than a second
   * before it is disconnected (default 10 000; ten times as many disconnect it at once), how often
   * a quiet stream gets a keep-alive comment (default 15 000 ms).
   */
  liveEvents?: { replay?: number; maxQueued?: number; keepAliveMs?: number };
}

export interface Intake {
  /** Serves /v1 and /__admin. */
  fetch(request: Request): Promise<Response>;
  /** `fetch` on the core's own request and response shapes (what the node adapter uses). */
  handle(request: ApiRequest): Promise<ApiResponse>;
  admin: AdminService;
  clock: Clock;
  adminToken: string;
  events: DomainEvents;
  engine: Engine;
  /** Called after every change of state, with what changed (persistence listens). */
  onChange(listener: (change: Change) => void): () => void;
  /**
   * Answers and outgoing webhooks wait for the promise `hold` returns, when it returns one: the
   * data file holds them until the changes they stem from are committed. A rejection becomes the
   * answer (an HttpError's status and message, else a 500).
   */
  holdAnswers(hold: AnswerHold): () => void;
  /** Reports an unexpected error to `onError` (or console.error), never throwing: adapters send their own failures here. */
  reportError(error: unknown): void;
  /**
   * What happens, live (what GET /__admin/events streams): `subscriber.deliver` gets each event
   * as it happens, of one account if `accountId` is given, until the returned function is called
   * or the server closes (`end`).
   */
  subscribe(subscriber: Subscriber): () => void;
  close(): Promise<void>;
}

export const DEFAULTS = {
  rateLimit: 120,
  journalSize: 1000,
  maxBodyBytes: 32 * 1024 * 1024,
  // What messaging channels commonly allow per file (MMS and messaging-app images: about 5 MB),
  // and well inside the body limit once base64 adds its third.
  maxMediaBytes: 5 * 1024 * 1024,
  // About 50 files at the per-message limit: more than a test suite or a demo stores in one
  // account, while one account can no longer grow the state (memory, the data file, snapshots,
  // which hold the files as base64, a third larger) without bound.
  maxAccountMediaBytes: 256 * 1024 * 1024,
  idempotencyTtlMs: 24 * 60 * 60 * 1000,
};

export function createIntake(options: IntakeOptions = {}): Intake {
  const deterministic = options.deterministic ? (options.deterministic === true ? {} : options.deterministic) : undefined;
  const clock = makeClock(options, deterministic !== undefined);
  const restoredIds = options.snapshot?.ids as IdState | null | undefined;
  const ids = deterministic ? deterministicIds(deterministic.seed ?? 1, restoredIds ?? undefined) : randomIds();
  const store = new Store(ids, clock);
  const journal = new Journal(options.journalSize ?? DEFAULTS.journalSize, (value) => store.accountByApiKey(value) !== undefined);
  const rateLimiter = createRateLimiter(options.rateLimit ?? DEFAULTS.rateLimit, clock);
  const faults = new Faults(options.faults ?? [], ids, bodyChecker("setFaults", "Fault rules"));
  // Every part reports through this one: an onError that throws (tests often rethrow) must not
  // stop an answer, a save or the scheduler's bookkeeping.
  const report = options.onError ?? ((error: unknown) => console.error("intake: unexpected error", error));
  const onError = (error: unknown) => {
    try {
      report(error);
    } catch (thrown) {
      console.error("intake: onError threw", thrown, "while reporting", error);
    }
  };
  const events = createEvents(onError);
  const feed = new EventFeed({ replay: options.liveEvents?.replay }, onError);
  const streamLimits = checkedLimits({ ...STREAM_DEFAULTS, ...definedOf(options.liveEvents ?? {}) });
  const trustForwardedProto = options.trustForwardedProto ?? false;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULTS.maxBodyBytes;

  let holds: AnswerHold[] = [];
  const held: AnswerHold = () => {
    if (holds.length === 0) return undefined;
    const waits = holds.map((hold) => hold()).filter((wait) => wait !== undefined);
    return waits.length ? Promise.all(waits).then(() => undefined) : undefined;
  };
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  // A webhook goes out only once the state that caused it is saved: a crash never leaves a receiver
  // told of a message the restarted server does not have.
  const fetch = async (request: Request) => {
    const wait = held();
    if (wait) await wait;
    return send(request);
  };

  const engine = createEngine({ store, clock, ids, events, random: () => ids.random(), onError, sequential: deterministic !== undefined }, { ...options, fetch });
  const admin = createAdminService({
    store,
    clock,
    ids,
    journal,
    rateLimiter,
    faults,
    events,
    engine,
    initialSeed: options.seed,
    checkSeed: bodyChecker("applySeed", "Seed"),
    allowHttpWebhooks: options.allowHttpWebhooks ?? false,
  });
  const adminToken = options.adminToken ?? `adm_${ids.token(32)}`;
  const happenings = observeHappenings(feed, {
    store,
    clock,
    events,
    onJobRan: engine.onJobRan,
    requestLine: (record) => journal.requestLine(record),
  });

  if (options.snapshot) {
    // The clock first: restoring picks up the stored jobs, whose times are on it.
    if (clock.mode === "virtual") (clock as VirtualClock).set(Date.parse(options.snapshot.clock.now));
    admin.load(options.snapshot);
  } else if (options.seed) {
    admin.applySeed(options.seed);
  }

  const api = createApi({
    services: {
      store,
      clock,
      events,
      limits: {
        maxMediaBytes: options.maxMediaBytes ?? DEFAULTS.maxMediaBytes,
        maxAccountMediaBytes: options.maxAccountMediaBytes ?? DEFAULTS.maxAccountMediaBytes,
        idempotencyTtlMs: options.idempotencyTtlMs ?? DEFAULTS.idempotencyTtlMs,
      },
    },
    rateLimiter,
    faults,
    maxBodyBytes,
    trustForwardedProto,
    // Deterministic runs number them like every other id, so transcripts match byte for byte.
    requestId: deterministic ? () => ids.id("req_") : serialIds("req_", ids),
    record: (entry) => {
      journal.add(entry);
      happenings.requestAnswered(entry);
    },
    hold: held,
    version: () => store.version,
    onError,
  });
  const adminApi = createAdminApi({
    admin,
    token: adminToken,
    trustForwardedProto,
    maxBodyBytes,
    now: () => clock.now(),
    hold: held,
    version: () => store.version,
    onError,
    openEvents: ({ accountId, after }) => eventStream(feed, { ...streamLimits, accountId, after }),
  });

  const handle = (request: ApiRequest) => {
    const { pathname } = request.url;
    // A request an adapter refused is answered (and journaled) as the API answers, whatever its path.
    const isAdmin = pathname === ADMIN_BASE || pathname.startsWith(`${ADMIN_BASE}/`);
    return isAdmin && !request.refusal ? adminApi(request) : api(request);
  };

  return {
    fetch: async (request) => toFetchResponse(await handle(fromFetchRequest(request))),
    handle,
    admin,
    clock,
    adminToken,
    events,
    engine,
    onChange: (listener) => store.onChange(listener),
    holdAnswers(hold) {
      holds.push(hold);
      return () => (holds = holds.filter((h) => h !== hold));
    },
    reportError: onError,
    subscribe: (subscriber) => feed.subscribe(subscriber),
    /** Ends the live event streams, stops scheduling; webhook attempts in flight are aborted and stay stored for a restart. */
    close: () => {
      feed.close();
      happenings.stop();
      return engine.close();
    },
  };
}

function makeClock(options: IntakeOptions, deterministic: boolean): Clock {
  if (typeof options.clock === "object") return options.clock;
  if (options.clock === "virtual" || deterministic) {
    const start = options.clockStart === undefined ? VIRTUAL_EPOCH : typeof options.clockStart === "number" ? options.clockStart : Date.parse(options.clockStart);
    if (!Number.isFinite(start)) throw new Error(`clockStart ${String(options.clockStart)} is not a date.`);
    return virtualClock(start);
  }
  return realClock();
}

/** The options given, without those left undefined (so defaults fill them). */
function definedOf<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
}
