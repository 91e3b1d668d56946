/**
 * One sandbox: a Durable Object running the reference server's core (`createIntake`, the same as
 * the Node server's and the msw handlers'), mounted at `/s/<name>`. Its state lives in the
 * object's SQLite storage, written through before any answer leaves (storage.ts and the server's
 * write-through, committing at once: the object's output gate holds each answer until the writes
 * before it are durable). It is loaded when the object wakes; the alarm wakes it for scheduled
 * work (alarm.ts). The Worker reaches its control methods (create, describe, reset, destroy) by
 * RPC only: no request path leads to them.
 */
import { DurableObject } from "cloudflare:workers";
import { createIntake, DEFAULTS, type Intake, type Snapshot } from "@intake/server";
import {
  DEMO_SEED,
  createModelBot,
  errorAnswer,
  internals,
  randomToken,
  startDemo,
  sandboxSeed,
  writeThrough,
  type SqlDatabase,
  type WriteThrough,
} from "@intake/server/hosting";
import { alarmedClock, RUNNING_GRACE_MS, type Alarm } from "./alarm.js";
import { assetFiles } from "./assets.js";
import { capacityOf, LIMITS } from "./capacity.js";
import { createSandbox, prepare, readSettings, sandboxStore, sqlOf } from "./storage.js";
import { nameOf, type CreateRequest, type SandboxSettings } from "./settings.js";

/** What the operator is told of a sandbox: its secrets included (the operator holds them all). */
export interface SandboxInfo {
  name: string;
  createdAt: string;
  clock: "real" | "virtual";
  /** When the object's alarm wakes it next, for the work due soonest (ISO time); null when nothing waits. */
  nextWake: string | null;
  adminToken: string;
  accounts: Array<{ id: string; name: string; kind: string; apiKey: string; webhookSecret: string; webhookUrl: string | null }>;
}

/** An RPC's answer: its value, or the error to answer the operator with (errors thrown over RPC lose their status). */
export type Outcome<T> = { ok: true; value: T } | { ok: false; status: number; code: string; message: string };

interface Hosted {
  settings: SandboxSettings;
  intake: Intake;
  alarm: Alarm;
  through: WriteThrough;
}

/** What a sandbox uses of the Worker's bindings. */
export interface SandboxEnv {
  /** The dashboard's built files. */
  ASSETS: Fetcher;
  /** The most contacts and messages a sandbox holds (capacity.ts). */
  SANDBOX_MAX_CONTACTS?: string;
  SANDBOX_MAX_MESSAGES?: string;
}

export class Sandbox extends DurableObject<SandboxEnv> {
  private readonly sql: SqlDatabase;
  private hosted: Hosted | undefined;
  /** Why its stored state could not be loaded (a record a later version refuses, say): it answers that, and can still be deleted. */
  private broken: string | undefined;

  constructor(ctx: DurableObjectState, env: SandboxEnv) {
    super(ctx, env);
    this.sql = sqlOf(ctx.storage);
    // Nothing is handed to the object before its state is loaded.
    void ctx.blockConcurrencyWhile(async () => {
      // A name nobody created reaches an object too: it writes nothing, not even its tables.
      if (!this.made()) return;
      const settings = readSettings(this.sql);
      if (!settings) return;
      try {
        this.hosted = this.start(settings, sandboxStore(this.sql, settings.name).read(), await ctx.storage.getAlarm());
      } catch (error) {
        this.broken = (error as Error).message;
        console.error(`sandbox ${settings.name}: its state cannot be loaded: ${this.broken}`);
      }
    });
  }

  override async fetch(request: Request): Promise<Response> {
    if (this.hosted) return this.hosted.intake.fetch(request);
    const name = nameOf(new URL(request.url).pathname) ?? "";
    if (this.broken !== undefined) {
      return errorAnswer(request, `/s/${name}`, {
        status: 500,
        code: "INTERNAL_ERROR",
        message: `Sandbox ${name} cannot load its state (${this.broken}): its operator can delete it (DELETE /__operator/sandboxes/${name}) and create it again.`,
      });
    }
    return errorAnswer(request, `/s/${name}`, {
      status: 404,
      code: "SANDBOX_NOT_FOUND",
      message: `There is no sandbox ${name} here: check the base URL, or ask its operator to create it.`,
    });
  }

  /**
   * Due work: the object was loaded for it (its jobs picked up, those due started), and it is
   * done; then the alarm is set for the next. A timer due now that has not fired yet sets it
   * again for now, which is harmless: the alarm comes back once more.
   */
  override async alarm(): Promise<void> {
    if (!this.hosted) return;
    this.hosted.alarm.fired();
    await this.hosted.intake.admin.settle();
    this.hosted.alarm.rearm();
  }

  /** A new sandbox, from its seed or the demo; refused whole (nothing kept) when it cannot be made. */
  async create(name: string, createdAt: string, request: CreateRequest & { clock: "real" | "virtual" }): Promise<Outcome<SandboxInfo>> {
    if (this.hosted || this.broken !== undefined)
      return { ok: false, status: 409, code: "SANDBOX_EXISTS", message: `Sandbox ${name} exists already.` };
    let settings: SandboxSettings;
    try {
      settings = {
        name,
        createdAt,
        seed: request.demo ? sandboxSeed(DEMO_SEED) : sandboxSeed(request.seed, request.keepSeedSecrets === true),
        demo: request.demo === true,
        adminToken: `adm_${randomToken(32)}`,
        clock: request.clock,
        rateLimit: request.rateLimit ?? DEFAULTS.rateLimit,
        ...(request.clockStart === undefined ? {} : { clockStart: request.clockStart }),
        ...(request.bot === undefined ? {} : { bot: request.bot }),
      };
      prepare(this.sql);
      this.hosted = this.start(settings, undefined, null);
      // The demo's first conversation, as `intake-server --demo` plays it: a lead writes, the bot answers into the inbox.
      if (settings.demo) await startDemo(this.hosted.intake.admin);
      return { ok: true, value: await this.info() };
    } catch (error) {
      await this.forget();
      return refused(error);
    }
  }

  async describe(): Promise<Outcome<SandboxInfo>> {
    if (this.broken !== undefined)
      return {
        ok: false,
        status: 500,
        code: "INTERNAL_ERROR",
        message: `The sandbox cannot load its state (${this.broken}): delete it and create it again.`,
      };
    return this.hosted ? { ok: true, value: await this.info() } : NOT_HERE;
  }

  /** Back to its seed, as POST /__admin/reset does (a virtual clock rewound). */
  async reset(): Promise<Outcome<SandboxInfo>> {
    if (!this.hosted) return NOT_HERE;
    await this.hosted.intake.admin.reset();
    return { ok: true, value: await this.info() };
  }

  /** Everything it holds is deleted, its alarm too (a sandbox that cannot load its state as well). */
  async destroy(): Promise<Outcome<null>> {
    if (!this.hosted && this.broken === undefined) return NOT_HERE;
    await this.forget();
    return { ok: true, value: null };
  }

  private async forget(): Promise<void> {
    const hosted = this.hosted;
    this.hosted = undefined;
    this.broken = undefined;
    if (hosted) {
      await hosted.intake.close();
      hosted.through.stop();
    }
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
  }

  private made(): boolean {
    for (const _ of this.sql.rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'sandbox_settings'")) return true;
    return false;
  }

  /** The core, from the state the storage holds (or, for a new sandbox, from its seed, which the storage then holds). */
  private start(settings: SandboxSettings, snapshot: Snapshot | undefined, alarmAt: number | null): Hosted {
    const store = sandboxStore(this.sql, settings.name);
    const { clock, alarm } = alarmedClock(this.ctx.storage, alarmAt);
    const intake = createIntake({
      seed: settings.seed,
      snapshot,
      adminToken: settings.adminToken,
      clock: settings.clock === "virtual" ? "virtual" : clock,
      clockStart: settings.clockStart,
      basePath: `/s/${settings.name}`,
      rateLimit: settings.rateLimit,
      bot: settings.bot ? createModelBot({ ...settings.bot, apiKey: settings.bot.apiKey ?? null }) : undefined,
      ...LIMITS,
      capacity: capacityOf(this.env),
      // A Worker always answers: a fault rule cannot drop the connection.
      dropsConnections: false,
      onError: (error) => console.error(`sandbox ${settings.name}: unexpected error`, error),
    });
    if (!snapshot) createSandbox(this.sql, settings, intake.snapshot());
    // In the turn the core was made in: restored work due now runs from the next microtask on.
    const through = writeThrough(internals(intake), store, {
      commit: "at-once",
      abandon: (error) => {
        console.error(`sandbox ${settings.name}: ${error.message}`);
        this.ctx.abort(error.message);
      },
    });
    intake.events.subscribe((event) => {
      if (event.type !== "job.queued" && event.type !== "job.rescheduled") return;
      if (dueNow(event.job, intake.clock.now())) alarm.atLatest(Date.now() + RUNNING_GRACE_MS);
    });
    // Stored jobs due when it stopped run now.
    if (snapshot?.records.job?.some((job) => dueNow(job, intake.clock.now()))) alarm.atLatest(Date.now() + RUNNING_GRACE_MS);
    internals(intake).serveDashboard(assetFiles(this.env.ASSETS));
    return { settings, intake, alarm, through };
  }

  private async info(): Promise<SandboxInfo> {
    const { settings, intake } = this.hosted!;
    const accounts = (await intake.admin.accounts()).map(({ id, name, kind, apiKey, webhookSecret, webhookUrl }) => ({
      id,
      name,
      kind,
      apiKey,
      webhookSecret,
      webhookUrl,
    }));
    const wake = await this.ctx.storage.getAlarm();
    return {
      name: settings.name,
      createdAt: settings.createdAt,
      clock: settings.clock,
      nextWake: wake === null ? null : new Date(wake).toISOString(),
      adminToken: settings.adminToken,
      accounts,
    };
  }
}

const NOT_HERE: Outcome<never> = { ok: false, status: 404, code: "SANDBOX_NOT_FOUND", message: "There is no such sandbox." };

/** A job that runs now, not on a timer: the alarm is set a while ahead, so that it ends even if the object stops. */
function dueNow(job: { runAt: number | null }, now: number): boolean {
  return job.runAt === null || job.runAt <= now;
}

/** A create refused: a bad seed's 400 in its words; any other failure (a bot its options cannot make) a 400 saying why. */
function refused(error: unknown): Outcome<never> {
  const { status, code, message } = error as { status?: unknown; code?: unknown; message?: unknown };
  if (typeof status === "number" && typeof code === "string") return { ok: false, status, code, message: String(message) };
  return { ok: false, status: 400, code: "VALIDATION_ERROR", message: `The sandbox could not be made: ${String(message)}` };
}
