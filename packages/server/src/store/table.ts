/**
 * One kind of record, kept by id in the order the records were made, with the indexes its
 * declaration names (KINDS in store.ts). Every read is a map lookup: nothing scans the records.
 *
 * A record is the object the table holds: `update` changes it in place and moves it between
 * index entries when a field an index reads changed, so no caller keeps an index by hand.
 */

export interface Entry {
  id: string;
}

/** A value a record is found by within a scope (an account; "" for none): the oldest record with it wins. */
export interface Lookup<R> {
  scope(record: R): string;
  /** The value, or null/undefined when the record has none (it is not in this index). */
  value(record: R): string | null | undefined;
}

/** Records that share a value (a contact's messages), in the order they joined it. */
export type Group<R> = (record: R) => string | null | undefined;

/** A sum of an amount per value (an account's stored media bytes). */
export interface Tally<R> {
  key(record: R): string;
  amount(record: R): number;
  /** The fields the key and amount are read from: a change to no other field moves it (the amount may be costly to read). */
  reads: ReadonlyArray<keyof R>;
}

export interface KindSpec<R extends Entry, L extends string, G extends string, T extends string> {
  /** Its table in the data file: fixed for good, since data files name their tables so. */
  table: string;
  /** The @mswjs/data model that makes its records (models.ts); a plain copy of the fields otherwise. */
  model?: string;
  lookups?: Record<L, Lookup<R>>;
  groups?: Record<G, Group<R>>;
  tallies?: Record<T, Tally<R>>;
  /**
   * "written": a record written again moves to the end (the order expiry reads idempotency
   * records in). Default "created": a record keeps its place.
   */
  order?: "created" | "written";
}

/** What a table reads: for everyone. */
export interface ReadTable<R extends Entry, L extends string = string, G extends string = string, T extends string = string> {
  readonly size: number;
  get(id: string): R | undefined;
  /** The oldest record with this value in this scope. */
  find(lookup: L, scope: string, value: string): R | undefined;
  /** The records with this value, oldest first (the table's own array: do not change it). */
  group(group: G, value: string): readonly R[];
  tally(tally: T, key: string): number;
  /** Every record, oldest first. */
  all(): IterableIterator<R>;
}

/** Records given to `fill` with an id twice: the second's place among them, and the id. */
export class DuplicateId extends Error {
  constructor(
    readonly table: string,
    readonly index: number,
    readonly id: string,
  ) {
    super(`There are two ${table} records with the id ${id}.`);
  }
}

/** Told of every record written or removed (undefined), so the store can say what changed. */
export type Written = (id: string, record: object | undefined) => void;

type Slot<R> = R | R[];
const EMPTY: readonly never[] = [];

interface LookupIndex<R> extends Lookup<R> {
  /** scope -> value -> the record (or records, oldest first) with it. */
  readonly entries: Map<string, Map<string, Slot<R>>>;
}
interface GroupIndex<R> {
  readonly of: Group<R>;
  readonly entries: Map<string, R[]>;
}
interface TallyIndex<R> extends Tally<R> {
  readonly entries: Map<string, number>;
}

export class Table<R extends Entry, L extends string = string, G extends string = string, T extends string = string> implements ReadTable<
  R,
  L,
  G,
  T
> {
  private byId = new Map<string, R>();
  private readonly lookups: Map<L, LookupIndex<R>>;
  private readonly groups: Map<G, GroupIndex<R>>;
  private readonly tallies: Map<T, TallyIndex<R>>;
  // The same indexes as lists, for the writes that go through them all.
  private readonly lookupList: Array<LookupIndex<R>>;
  private readonly groupList: Array<GroupIndex<R>>;
  private readonly tallyList: Array<TallyIndex<R>>;
  /** What the indexes read of a record before an update (reused: an update never runs inside another). */
  private readonly before: Array<string | number | null | undefined> = [];

  constructor(
    readonly name: string,
    readonly spec: KindSpec<R, L, G, T>,
    /** Makes the stored record from the fields given. */
    private readonly make: (fields: R) => R,
    private readonly written: Written,
  ) {
    this.lookups = mapValues(spec.lookups, (lookup) => ({ scope: lookup.scope, value: lookup.value, entries: new Map() }));
    this.groups = mapValues(spec.groups, (of) => ({ of, entries: new Map() }));
    this.tallies = mapValues(spec.tallies, (tally) => ({ key: tally.key, amount: tally.amount, reads: tally.reads, entries: new Map() }));
    this.lookupList = [...this.lookups.values()];
    this.groupList = [...this.groups.values()];
    this.tallyList = [...this.tallies.values()];
  }

  get size(): number {
    return this.byId.size;
  }

  get(id: string): R | undefined {
    return this.byId.get(id);
  }

  find(lookup: L, scope: string, value: string): R | undefined {
    const slot = this.lookups.get(lookup)?.entries.get(scope)?.get(value);
    return Array.isArray(slot) ? slot[0] : slot;
  }

  group(group: G, value: string): readonly R[] {
    return this.groups.get(group)?.entries.get(value) ?? EMPTY;
  }

  tally(tally: T, key: string): number {
    return this.tallies.get(tally)?.entries.get(key) ?? 0;
  }

  all(): IterableIterator<R> {
    return this.byId.values();
  }

  /** Stores a new record made from `fields`; throws, storing nothing, when one has its id. */
  insert(fields: R): R {
    if (this.byId.has(fields.id)) throw new Error(`There are two ${this.name} records with the id ${fields.id}.`);
    const record = this.add(fields);
    this.written(record.id, record);
    return record;
  }

  /** Changes a stored record in place, re-indexing what the change moved. */
  update(record: R, patch: Partial<Omit<R, "id">>): R {
    if (this.byId.get(record.id) !== record)
      throw new Error(`The ${this.name} record ${record.id} is not the one stored: it was replaced (a reset, a load).`);
    this.readKeys(record, patch);
    Object.assign(record, patch);
    this.reindex(record);
    if (this.spec.order === "written") {
      this.byId.delete(record.id);
      this.byId.set(record.id, record);
    }
    this.written(record.id, record);
    return record;
  }

  remove(id: string): boolean {
    const record = this.byId.get(id);
    if (!record) return false;
    this.byId.delete(id);
    for (const index of this.lookupList) leave(index, index.scope(record), index.value(record), record);
    for (const index of this.groupList) part(index, index.of(record), record);
    for (const index of this.tallyList) count(index, index.key(record), -index.amount(record));
    this.written(id, undefined);
    return true;
  }

  /** Replaces every record with these, telling nobody (a load says so as a whole); throws DuplicateId for an id given twice. */
  fill(records: readonly R[]): void {
    this.clear();
    for (let index = 0; index < records.length; index++) {
      const fields = records[index]!;
      if (this.byId.has(fields.id)) throw new DuplicateId(this.name, index, fields.id);
      this.add(fields);
    }
  }

  clear(): void {
    this.byId = new Map();
    for (const index of [...this.lookupList, ...this.groupList, ...this.tallyList]) index.entries.clear();
  }

  /** Stores and indexes a record whose id is not stored yet. */
  private add(fields: R): R {
    const record = this.make(fields);
    this.byId.set(record.id, record);
    for (const index of this.lookupList) enter(index, record);
    for (const index of this.groupList) join(index, index.of(record), record);
    for (const index of this.tallyList) count(index, index.key(record), index.amount(record));
    return record;
  }

  /**
   * What each index reads of a record, taken before a change and compared after it. A tally is read
   * only when the patch touches a field it reads: its amount may be costly (a data URL's size).
   */
  private readKeys(record: R, patch: object): void {
    const before = this.before;
    let i = 0;
    for (const index of this.lookupList) {
      before[i++] = index.scope(record);
      before[i++] = index.value(record);
    }
    for (const index of this.groupList) before[i++] = index.of(record);
    for (const index of this.tallyList) {
      const touched = index.reads.some((field) => field in patch);
      before[i++] = touched ? index.key(record) : undefined;
      before[i++] = touched ? index.amount(record) : undefined;
    }
  }

  private reindex(record: R): void {
    const before = this.before;
    let i = 0;
    for (const index of this.lookupList) {
      const scope = before[i++] as string;
      const value = before[i++] as string | null | undefined;
      if (scope === index.scope(record) && value === index.value(record)) continue;
      leave(index, scope, value, record);
      enter(index, record);
    }
    for (const index of this.groupList) {
      const value = before[i++] as string | null | undefined;
      if (value === index.of(record)) continue;
      part(index, value, record);
      join(index, index.of(record), record);
    }
    for (const index of this.tallyList) {
      const key = before[i++] as string | undefined;
      const amount = before[i++] as number | undefined;
      if (key === undefined || amount === undefined || (key === index.key(record) && amount === index.amount(record))) continue;
      count(index, key, -amount);
      count(index, index.key(record), index.amount(record));
    }
  }
}

function mapValues<K extends string, A, B>(specs: Record<K, A> | undefined, make: (spec: A) => B): Map<K, B> {
  return new Map(Object.entries(specs ?? {}).map(([name, spec]) => [name as K, make(spec as A)]));
}

function enter<R>(index: LookupIndex<R>, record: R): void {
  const value = index.value(record);
  if (value === null || value === undefined) return;
  const scope = index.scope(record);
  let values = index.entries.get(scope);
  if (!values) index.entries.set(scope, (values = new Map()));
  const slot = values.get(value);
  if (slot === undefined) values.set(value, record);
  else if (Array.isArray(slot)) slot.push(record);
  else values.set(value, [slot, record]);
}

function leave<R>(index: LookupIndex<R>, scope: string, value: string | null | undefined, record: R): void {
  if (value === null || value === undefined) return;
  const values = index.entries.get(scope);
  const slot = values?.get(value);
  if (!values || slot === undefined) return;
  if (slot === record) values.delete(value);
  else if (Array.isArray(slot)) {
    const rest = slot.filter((other) => other !== record);
    values.set(value, rest.length === 1 ? (rest[0] as R) : rest);
  }
}

function join<R>(index: GroupIndex<R>, value: string | null | undefined, record: R): void {
  if (value === null || value === undefined) return;
  const members = index.entries.get(value);
  if (members) members.push(record);
  else index.entries.set(value, [record]);
}

function part<R>(index: GroupIndex<R>, value: string | null | undefined, record: R): void {
  if (value === null || value === undefined) return;
  const members = index.entries.get(value);
  const at = members ? members.indexOf(record) : -1;
  if (members && at >= 0) members.splice(at, 1);
}

function count<R>(index: TallyIndex<R>, key: string, amount: number): void {
  if (amount !== 0) index.entries.set(key, (index.entries.get(key) ?? 0) + amount);
}
