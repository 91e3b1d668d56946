/**
 * Durable work on the server's clock: webhook attempts, queued opening messages, follow-ups and
 * the processing of received messages. Every job is stored before it runs and removed when it has
 * run, so a graceful restart with --data-file resumes whatever was pending.
 *
 * Jobs due now run at once (not waiting for the clock); later ones wait in a heap behind a single
 * clock timer, so a virtual clock runs them, in order, when a test advances it. `settle()` resolves
 * when nothing is running.
 *
 * A kind of job may run through a pool (webhook attempts do): at most `perLane` of its jobs run at
 * once per lane (a receiver's URL) and `total` in all; due jobs beyond that wait their turn in a
 * queue of their stored records, first come first served, holding no promise or timer each. So a
 * backlog costs its records only, and a slow lane holds up its own jobs, not the others.
 */
import type { Domain } from "../domain/domain.js";
import { cancelJob, finishJob, queueJob } from "../domain/jobs.js";
import type { TimerHandle } from "../shared/clock.js";
import type { JobKind, JobPayloads } from "../store/job-payloads.js";
import type { JobRecord } from "../store/models.js";
import { JobHeap } from "./job-heap.js";

/** A handler returns DEFER when it stopped because the scheduler is stopping: its job stays stored. */
export const DEFER = Symbol("defer");

export interface JobContext {
  /**
   * Aborted when the state is about to be replaced (reset, restore, a commit undone) or the server
   * stops: what the job does after it lands in no state.
   */
  signal: AbortSignal;
}

/** What runs a job of kind `K`, given its payload. */
export type JobHandler<K extends JobKind> = (payload: JobPayloads[K], context: JobContext) => Outcome | Promise<Outcome>;

type Outcome = void | typeof DEFER;

/**
 * A handler as the scheduler keeps it, by a job's stored kind, and given the job's parsed payload:
 * `on` is what pairs it with its kind's payload type.
 */
type StoredHandler = (payload: unknown, context: JobContext) => Outcome | Promise<Outcome>;

/** How many jobs of a kind run at once: `perLane` per lane (`laneOf` the job's payload when it falls due), `total` in all. */
export interface PoolOptions<K extends JobKind> {
  laneOf: (payload: JobPayloads[K]) => string;
  perLane: number;
  total: number;
}

/** A pool's state: the jobs due and waiting, per lane, and how many run (its `laneOf` kept as a handler is). */
interface Pool extends Omit<PoolOptions<JobKind>, "laneOf"> {
  laneOf: (payload: unknown) => string;
  running: number;
  lanes: Map<string, { running: number; waiting: Queue<JobRecord> }>;
}

/**
 * First in, first out. A lane may hold a backlog of a hundred thousand jobs, and Array#shift on
 * an array that large copies it whole each time: taken from a moving head instead, the array is
 * cut only once half of it has been taken.
 */
class Queue<T> {
  private items: Array<T | undefined> = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  take(): T | undefined {
    if (this.head === this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head++] = undefined;
    if (this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}

export class Scheduler {
  private readonly heap = new JobHeap();
  private timer: { handle: TimerHandle; at: number } | undefined;
  private readonly inflight = new Set<Promise<void>>();
  private readonly handlers = new Map<string, StoredHandler>();
  private readonly pools = new Map<string, Pool>();
  private readonly cancelled = new Set<JobRecord>();
  /** Jobs by key, so cancelling a contact's follow-ups does not scan every pending job. */
  private readonly byKey = new Map<string, Set<JobRecord>>();
  private stopped = false;
  /** Work suspended (a commit failed): jobs are stored and remembered, but none starts until `resume`. */
  private suspended = false;
  private generation = new AbortController();
  /** In deterministic mode jobs run one at a time, so ids follow the schedule, not network timing. */
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly domain: Domain,
    private readonly onError: (error: unknown) => void,
    private readonly sequential = false,
  ) {}

  private get clock() {
    return this.domain.clock;
  }

  /**
   * Aborts the work in flight (webhook attempts stop without sending) and waits for it to end,
   * so nothing of the current state is written after this resolves.
   */
  async quiesce(): Promise<void> {
    this.generation.abort();
    await this.settle();
    this.generation = new AbortController();
  }

  /** `pool`: run this kind's jobs a few at a time (see the top of this file) rather than all at once. */
  on<K extends JobKind>(kind: K, handler: JobHandler<K>, pool?: PoolOptions<K>): void {
    this.handlers.set(kind, handler as StoredHandler);
    if (pool) this.pools.set(kind, { ...(pool as Omit<Pool, "running" | "lanes">), running: 0, lanes: new Map() });
  }

  /** How many jobs of a pooled kind are running and waiting for their turn now. */
  poolSize(kind: JobKind): { running: number; waiting: number } {
    const pool = this.pools.get(kind);
    let waiting = 0;
    for (const lane of pool?.lanes.values() ?? []) waiting += lane.waiting.size;
    return { running: pool?.running ?? 0, waiting };
  }

  /**
   * Stores a job and runs it at `runAt` (epoch ms on the server's clock), or now when null. A
   * `key` lets `cancel` find it again.
   */
  add<K extends JobKind>(kind: K, payload: JobPayloads[K], runAt: number | null = null, key: string | null = null): JobRecord {
    const job = queueJob(this.domain, kind, payload, runAt, key);
    this.remember(job);
    this.place(job);
    return job;
  }

  /** Whether a job added with this key is waiting or running. */
  has(key: string): boolean {
    return this.byKey.has(key);
  }

  /** The jobs added with this key that are waiting or running. */
  keyed(key: string): JobRecord[] {
    return [...(this.byKey.get(key) ?? [])];
  }

  /** Removes the pending jobs added with this key. */
  cancel(key: string): number {
    const jobs = this.byKey.get(key);
    if (!jobs) return 0;
    this.byKey.delete(key);
    for (const job of jobs) {
      this.cancelled.add(job);
      cancelJob(this.domain, job);
    }
    return jobs.size;
  }

  private remember(job: JobRecord) {
    if (job.key === null) return;
    let jobs = this.byKey.get(job.key);
    if (!jobs) this.byKey.set(job.key, (jobs = new Set()));
    jobs.add(job);
  }

  private forget(job: JobRecord) {
    if (job.key === null) return;
    const jobs = this.byKey.get(job.key);
    if (!jobs) return;
    jobs.delete(job);
    if (!jobs.size) this.byKey.delete(job.key);
  }

  /** Pending jobs, soonest first. */
  pending(): JobRecord[] {
    return [...this.domain.store.job.all()].sort((a, b) => (a.runAt ?? 0) - (b.runAt ?? 0));
  }

  /** Picks the stored jobs up again (after a restart, a reset or a restored snapshot). */
  restore(): void {
    this.unplace();
    this.cancelled.clear();
    this.byKey.clear();
    for (const job of this.domain.store.job.all()) {
      this.remember(job);
      this.place(job);
    }
  }

  /**
   * Ends the work in flight at once, without waiting for it (the state it works on is being put
   * back: nothing it does after this lands), and starts no job until `resume`. New jobs are stored.
   */
  suspend(): void {
    this.suspended = true;
    this.generation.abort();
    this.generation = new AbortController();
    this.unplace();
  }

  /** Starts work again after `suspend`, from the stored jobs. */
  resume(): void {
    this.suspended = false;
    this.restore();
  }

  /** Forgets the jobs placed (waiting for their time or their turn), not the stored ones. */
  private unplace() {
    this.heap.clear();
    for (const pool of this.pools.values()) pool.lanes.clear();
    if (this.timer) this.clock.clearTimer(this.timer.handle);
    this.timer = undefined;
  }

  /**
   * Resolves when no job is running (jobs started by jobs included). Every caller shares one wait:
   * each clock timer's run waits too, and under a steady backlog one wait each would pile up.
   */
  settle(): Promise<void> {
    this.settling ??= this.drain().finally(() => (this.settling = undefined));
    return this.settling;
  }

  private settling: Promise<void> | undefined;

  private async drain(): Promise<void> {
    while (this.inflight.size) await Promise.allSettled([...this.inflight]);
  }

  /** Stops scheduling, aborts the work in flight and waits for it; unfinished jobs stay stored. */
  async close(): Promise<void> {
    this.stopped = true;
    if (this.timer) this.clock.clearTimer(this.timer.handle);
    this.timer = undefined;
    this.generation.abort();
    await this.settle();
  }

  private place(job: JobRecord) {
    if (this.stopped || this.suspended) return;
    if (job.runAt === null || job.runAt <= this.clock.now()) {
      this.start(job);
    } else {
      this.heap.push(job);
      this.arm();
    }
  }

  /** A job now due: run at once, or, for a pooled kind, queued for its turn. */
  private start(job: JobRecord) {
    const pool = this.pools.get(job.kind);
    if (!pool) return this.track(this.run(job));
    const name = pool.laneOf(JSON.parse(job.payload));
    let lane = pool.lanes.get(name);
    if (!lane) pool.lanes.set(name, (lane = { running: 0, waiting: new Queue() }));
    lane.waiting.push(job);
    this.pump(pool);
  }

  /** Starts waiting jobs while their lanes and the pool have room, one lane after another. */
  private pump(pool: Pool) {
    let started = true;
    while (started && pool.running < pool.total && !this.stopped) {
      started = false;
      for (const [name, lane] of pool.lanes) {
        if (pool.running >= pool.total) break;
        if (lane.running >= pool.perLane) continue;
        const job = lane.waiting.take();
        if (!job) {
          if (lane.running === 0) pool.lanes.delete(name);
          continue;
        }
        lane.running++;
        pool.running++;
        started = true;
        // The next job starts inside this one's promise, before it ends: settle() sees no gap.
        this.track(
          this.run(job).finally(() => {
            lane.running--;
            pool.running--;
            this.pump(pool);
          }),
        );
      }
    }
  }

  private track(work: Promise<void>) {
    this.inflight.add(work);
    void work.finally(() => this.inflight.delete(work));
  }

  private run(job: JobRecord): Promise<void> {
    // The generation it was started in: one that ended before it began (a stop, the state replaced)
    // leaves its stored job to whoever picks the jobs up next (a restart, `restore`, `resume`).
    const { signal } = this.generation;
    if (!this.sequential) return this.execute(job, signal);
    const next = this.chain.then(() => this.execute(job, signal));
    this.chain = next;
    return next;
  }

  private async execute(job: JobRecord, signal: AbortSignal): Promise<void> {
    await Promise.resolve();
    if (this.cancelled.delete(job)) return;
    // Not begun before its generation ended (queued behind others in deterministic mode).
    if (signal.aborted) return;
    const handler = this.handlers.get(job.kind);
    let outcome: Outcome = undefined;
    let finished = false;
    try {
      if (!handler) throw new Error(`No handler for ${job.kind} jobs`);
      outcome = await handler(JSON.parse(job.payload), { signal });
      finished = true;
    } catch (error) {
      this.onError(error);
    }
    // Only a job cut short by the stop stays stored (its handler says DEFER, or failed as the stop
    // came): one that finished its work is done, or a restart would do it twice.
    if (outcome === DEFER || (!finished && signal.aborted && this.stopped)) return;
    this.forget(job);
    finishJob(this.domain, job);
  }

  /** One clock timer, set for the soonest job. */
  private arm() {
    const next = this.heap.peek();
    if (!next || this.stopped) return;
    if (this.timer && this.timer.at <= next.runAt!) return;
    if (this.timer) this.clock.clearTimer(this.timer.handle);
    const at = next.runAt!;
    this.timer = { at, handle: this.clock.setTimer(() => this.fire(), at - this.clock.now()) };
  }

  /** Runs every job now due and waits for them, so a virtual clock's advance sees them finish. */
  private async fire(): Promise<void> {
    this.timer = undefined;
    const now = this.clock.now();
    const due: JobRecord[] = [];
    while (this.heap.peek() && this.heap.peek()!.runAt! <= now) due.push(this.heap.pop()!);
    this.arm();
    for (const job of due) this.start(job);
    await this.settle();
  }
}
