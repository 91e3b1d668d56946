/**
 * Durable work on the server's clock: webhook attempts, queued opening messages, follow-ups and
 * the processing of received messages. Every job is stored before it runs and removed when it has
 * run, so a graceful restart with --data-file resumes whatever was pending.
 *
 * Jobs due now run at once (not waiting for the clock); later ones wait in a heap behind a single
 * clock timer, so a virtual clock runs them, in order, when a test advances it. `settle()` resolves
 * when nothing is running.
 */
import type { Clock, TimerHandle } from "../shared/clock.js";
import type { IdSource } from "../shared/ids.js";
import type { JobRecord } from "../store/models.js";
import type { Store } from "../store/store.js";

/** A handler returns DEFER when it stopped because the scheduler is stopping: its job stays stored. */
export const DEFER = Symbol("defer");

export interface JobContext {
  /** Aborted when the state is about to be replaced (reset, restore) or the server stops. */
  signal: AbortSignal;
}

export type JobHandler = (payload: Record<string, unknown>, context: JobContext) => void | typeof DEFER | Promise<void | typeof DEFER>;

export class Scheduler {
  private heap: JobRecord[] = [];
  private timer: { handle: TimerHandle; at: number } | undefined;
  private readonly inflight = new Set<Promise<void>>();
  private readonly handlers = new Map<string, JobHandler>();
  private readonly cancelled = new Set<string>();
  /** Job ids by key, so cancelling a contact's follow-ups does not scan every pending job. */
  private readonly byKey = new Map<string, Set<string>>();
  private stopped = false;
  private generation = new AbortController();
  /** In deterministic mode jobs run one at a time, so ids follow the schedule, not network timing. */
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly ids: IdSource,
    private readonly onError: (error: unknown) => void,
    private readonly sequential = false,
  ) {}

  /**
   * Aborts the work in flight (webhook attempts stop without sending) and waits for it to end,
   * so nothing of the current state is written after this resolves.
   */
  async quiesce(): Promise<void> {
    this.generation.abort();
    await this.settle();
    this.generation = new AbortController();
  }

  on(kind: string, handler: JobHandler): void {
    this.handlers.set(kind, handler);
  }

  /**
   * Stores a job and runs it at `runAt` (epoch ms on the server's clock), or now when null. A
   * `key` lets `cancel` find it again.
   */
  add(kind: string, payload: Record<string, unknown>, runAt: number | null = null, key: string | null = null): JobRecord {
    const job: JobRecord = { id: this.ids.id("job_"), kind, runAt, key, payload: JSON.stringify(payload), createdAt: this.store.timestamp() };
    this.store.addJob(job);
    this.remember(job);
    this.place(job);
    return job;
  }

  /** Whether a job added with this key is waiting or running. */
  has(key: string): boolean {
    return this.byKey.has(key);
  }

  /** Removes the pending jobs added with this key. */
  cancel(key: string): number {
    const ids = this.byKey.get(key);
    if (!ids) return 0;
    this.byKey.delete(key);
    for (const id of ids) {
      this.cancelled.add(id);
      this.store.removeJob(id);
    }
    return ids.size;
  }

  private remember(job: JobRecord) {
    if (!job.key) return;
    let ids = this.byKey.get(job.key);
    if (!ids) this.byKey.set(job.key, (ids = new Set()));
    ids.add(job.id);
  }

  private forget(job: JobRecord) {
    const ids = job.key ? this.byKey.get(job.key) : undefined;
    if (!ids) return;
    ids.delete(job.id);
    if (!ids.size) this.byKey.delete(job.key!);
  }

  /** Pending jobs, soonest first. */
  pending(): JobRecord[] {
    return this.store.jobs().sort((a, b) => (a.runAt ?? 0) - (b.runAt ?? 0));
  }

  /** Picks the stored jobs up again (after a restart, a reset or a restored snapshot). */
  restore(): void {
    this.heap = [];
    this.cancelled.clear();
    this.byKey.clear();
    if (this.timer) this.clock.clearTimer(this.timer.handle);
    this.timer = undefined;
    for (const job of this.store.jobs()) {
      this.remember(job);
      this.place(job);
    }
  }

  /** Resolves when no job is running (jobs started by jobs included). */
  async settle(): Promise<void> {
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
    if (this.stopped) return;
    if (job.runAt === null || job.runAt <= this.clock.now()) {
      this.track(this.run(job));
    } else {
      push(this.heap, job);
      this.arm();
    }
  }

  private track(work: Promise<void>) {
    this.inflight.add(work);
    void work.finally(() => this.inflight.delete(work));
  }

  private run(job: JobRecord): Promise<void> {
    if (!this.sequential) return this.execute(job);
    const next = this.chain.then(() => this.execute(job));
    this.chain = next;
    return next;
  }

  private async execute(job: JobRecord): Promise<void> {
    await Promise.resolve();
    if (this.cancelled.delete(job.id)) return;
    const { signal } = this.generation;
    // Not begun before the stop (queued behind others in deterministic mode): a restart begins it.
    if (signal.aborted && this.stopped) return;
    const handler = this.handlers.get(job.kind);
    let outcome: void | typeof DEFER = undefined;
    let finished = false;
    try {
      if (!handler) throw new Error(`No handler for ${job.kind} jobs`);
      outcome = await handler(JSON.parse(job.payload) as Record<string, unknown>, { signal });
      finished = true;
    } catch (error) {
      this.onError(error);
    }
    // Only a job cut short by the stop stays stored (its handler says DEFER, or failed as the stop
    // came): one that finished its work is done, or a restart would do it twice.
    if (outcome === DEFER || (!finished && signal.aborted && this.stopped)) return;
    this.forget(job);
    this.store.removeJob(job.id);
  }

  /** One clock timer, set for the soonest job. */
  private arm() {
    const next = this.heap[0];
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
    while (this.heap[0] && this.heap[0].runAt! <= now) due.push(pop(this.heap)!);
    this.arm();
    const work = due.map((job) => this.run(job));
    for (const w of work) this.track(w);
    await Promise.all(work);
    await this.settle();
  }
}

// A binary min-heap on (runAt, creation order). Ids from one source sort in creation order only
// within a run, so the heap keeps its own insertion sequence.
let sequence = 0;
const order = new WeakMap<JobRecord, number>();
const before = (a: JobRecord, b: JobRecord) => a.runAt! < b.runAt! || (a.runAt === b.runAt && order.get(a)! < order.get(b)!);

function push(heap: JobRecord[], job: JobRecord) {
  order.set(job, sequence++);
  heap.push(job);
  for (let i = heap.length - 1; i > 0; ) {
    const parent = (i - 1) >> 1;
    if (!before(heap[i]!, heap[parent]!)) break;
    [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
    i = parent;
  }
}

function pop(heap: JobRecord[]): JobRecord | undefined {
  const top = heap[0];
  const last = heap.pop();
  if (heap.length && last) {
    heap[0] = last;
    for (let i = 0; ; ) {
      const l = 2 * i + 1;
      const r = l + 1;
      let smallest = i;
      if (l < heap.length && before(heap[l]!, heap[smallest]!)) smallest = l;
      if (r < heap.length && before(heap[r]!, heap[smallest]!)) smallest = r;
      if (smallest === i) break;
      [heap[i], heap[smallest]] = [heap[smallest]!, heap[i]!];
      i = smallest;
    }
  }
  return top;
}
