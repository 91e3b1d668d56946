/**
 * A bounded first-in-first-out list of byte records, all kept in one buffer outside the
 * JavaScript heap. What it holds is no work for the garbage collector: records kept as objects
 * for a thousand requests each survive a scavenge or two and are promoted, and on a large heap
 * the promotions keep the collector marking it (bench/README.md, "Lookups at 1,000,000").
 *
 * The buffer is used as a circle: a record goes after the newest, or at the start when it does not
 * fit before the end; when neither has room, the records are copied, in order, into a buffer at
 * least twice the size. It shrinks back only on clear().
 */
const INITIAL_BYTES = 64 * 1024;
const INITIAL_RECORDS = 1024;

/**
 * Writes a record at `offset` (of `bytes`, seen also through `view`) and returns how many bytes it
 * took. `bytes` ends where the room reserved for the record does, so a writer cannot run over the
 * records after it.
 */
export type RecordWriter = (bytes: Uint8Array, view: DataView, offset: number) => number;

/** Reads the record at `start` up to `end`. */
export type RecordReader = (bytes: Uint8Array, view: DataView, start: number, end: number) => void;

export class ByteRing {
  private bytes: Uint8Array = new Uint8Array(INITIAL_BYTES);
  private view: DataView = new DataView(this.bytes.buffer);
  // Where each record starts and how long it is, in a circle of their own from `first`.
  private starts = new Float64Array(0);
  private lengths = new Float64Array(0);
  private first = 0;
  private count = 0;
  private liveBytes = 0;
  /** Where the byte after the newest record is. */
  private head = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 0) throw new RangeError(`A ByteRing holds a whole number of records, 0 or more (got ${capacity}).`);
    this.clear();
  }

  /** Appends a record of at most `maxBytes`, dropping the oldest once `capacity` are kept. */
  push(maxBytes: number, write: RecordWriter): void {
    if (this.capacity <= 0) return;
    if (this.count === this.capacity) this.dropOldest();
    if (this.count === this.starts.length) this.reindex(Math.min(this.capacity, this.starts.length * 2));
    const start = this.reserve(span(maxBytes));
    const length = write(this.bytes.subarray(0, start + maxBytes), this.view, start);
    if (!(length >= 0 && length <= maxBytes)) throw new RangeError(`A record of ${length} bytes was written where ${maxBytes} were reserved.`);
    const slot = (this.first + this.count) % this.starts.length;
    this.starts[slot] = start;
    this.lengths[slot] = length;
    this.count++;
    this.liveBytes += span(length);
    this.head = start + span(length);
  }

  /** Calls `read` with each record's bytes, oldest first. */
  forEach(read: RecordReader): void {
    for (let i = 0; i < this.count; i++) {
      const slot = (this.first + i) % this.starts.length;
      read(this.bytes, this.view, this.starts[slot]!, this.starts[slot]! + this.lengths[slot]!);
    }
  }

  clear(): void {
    if (this.bytes.length > INITIAL_BYTES) this.use(new Uint8Array(INITIAL_BYTES));
    const records = Math.max(0, Math.min(this.capacity, INITIAL_RECORDS));
    this.starts = new Float64Array(records);
    this.lengths = new Float64Array(records);
    this.first = this.count = this.liveBytes = this.head = 0;
  }

  private dropOldest(): void {
    this.liveBytes -= span(this.lengths[this.first]!);
    this.first = (this.first + 1) % this.starts.length;
    this.count--;
  }

  /** Where a record of up to `size` bytes can go. */
  private reserve(size: number): number {
    if (this.count === 0) {
      if (size > this.bytes.length) this.use(new Uint8Array(grown(this.bytes.length, size)));
      return 0;
    }
    const tail = this.starts[this.first]!;
    if (this.head > tail) {
      // Not wrapped: room after the newest record, else before the oldest.
      if (size <= this.bytes.length - this.head) return this.head;
      if (size <= tail) return 0;
    } else if (size <= tail - this.head) {
      return this.head;
    }
    this.relocate(new Uint8Array(grown(this.bytes.length, this.liveBytes + size)));
    return this.head;
  }

  /** Copies the records, oldest first, to the start of a new buffer. */
  private relocate(bytes: Uint8Array): void {
    let head = 0;
    this.reindex(this.starts.length);
    for (let i = 0; i < this.count; i++) {
      const start = this.starts[i]!;
      const length = this.lengths[i]!;
      bytes.set(this.bytes.subarray(start, start + length), head);
      this.starts[i] = head;
      head += span(length);
    }
    this.use(bytes);
    this.head = head;
  }

  private use(bytes: Uint8Array): void {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer);
  }

  /** Lays the index out oldest first from its start, with room for `records`. */
  private reindex(records: number): void {
    const starts = new Float64Array(records);
    const lengths = new Float64Array(records);
    for (let i = 0; i < this.count; i++) {
      const slot = (this.first + i) % this.starts.length;
      starts[i] = this.starts[slot]!;
      lengths[i] = this.lengths[slot]!;
    }
    this.starts = starts;
    this.lengths = lengths;
    this.first = 0;
  }
}

/**
 * The room a record takes: an empty one takes a byte all the same, so that records never share a
 * start and the newest one's end is past the oldest one's start unless the circle has wrapped.
 */
const span = (length: number) => Math.max(1, length);

function grown(current: number, needed: number): number {
  let size = current * 2;
  while (size < needed) size *= 2;
  return size;
}
