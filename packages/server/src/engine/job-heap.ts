/**
 * The jobs waiting for their time: a binary min-heap on (runAt, the order they were pushed). Ids
 * from one source sort in creation order only within a run, so the heap keeps its own sequence,
 * one per heap: two schedulers (two servers in one process) number their jobs apart.
 */
import type { JobRecord } from "../store/models.js";

export class JobHeap {
  private items: JobRecord[] = [];
  private sequence = 0;
  private readonly order = new WeakMap<JobRecord, number>();

  /** The soonest job, left in place. */
  peek(): JobRecord | undefined {
    return this.items[0];
  }

  /** Forgets every job. */
  clear(): void {
    this.items = [];
  }

  push(job: JobRecord): void {
    const heap = this.items;
    this.order.set(job, this.sequence++);
    heap.push(job);
    for (let i = heap.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (!this.before(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  /** Takes the soonest job out. */
  pop(): JobRecord | undefined {
    const heap = this.items;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length && last) {
      heap[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let smallest = i;
        if (l < heap.length && this.before(heap[l]!, heap[smallest]!)) smallest = l;
        if (r < heap.length && this.before(heap[r]!, heap[smallest]!)) smallest = r;
        if (smallest === i) break;
        [heap[i], heap[smallest]] = [heap[smallest]!, heap[i]!];
        i = smallest;
      }
    }
    return top;
  }

  private before(a: JobRecord, b: JobRecord): boolean {
    return a.runAt! < b.runAt! || (a.runAt === b.runAt && this.order.get(a)! < this.order.get(b)!);
  }
}
