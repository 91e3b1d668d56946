/**
 * One kind of record, kept by id in the order the records were made, with the indexes its
 * declaration names (kinds.ts). Every read is a map lookup: nothing scans the records.
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

export class Table<R extends Entry, L extends string = string, G extends string = string, T extends string = string> implements ReadTable<R, L, G, T> {
  private byId = new Map<string, R>();
  private readonly lookups: Record<L, LookupIndex<R>>;
  private readonly groups: Record<G, GroupIndex<R>>;
  private readonly tallies: Record<T, TallyIndex<R>>;

  constructor(
    readonly name: string,
    readonly spec: KindSpec<R, L, G, T>,
    /** Makes the stored record from the fields given. */
    private readonly make: (fields: R) => R,
    private readonly written: Written,
  ) {
    this.lookups = mapValues(spec.lookups, (lookup) => ({ scope: lookup.scope, value: lookup.value, entries: new Map() }));
    this.groups = mapValues(spec.groups, (of) => ({ of, entries: new Map() }));
    this.tallies = mapValues(spec.tallies, (tally) => ({ key: tally.key, amount: tally.amount, entries: new Map() }));
  }

  get size(): number {
    return this.byId.size;
  }

  get(id: string): R | undefined {
    return this.byId.get(id);
  }

  find(lookup: L, scope: string, value: string): R | undefined {
    const slot = this.lookups[lookup].entries.get(scope)?.get(value);
    return Array.isArray(slot) ? slot[0] : slot;
  }

  group(group: G, value: string): readonly R[] {
    return this.groups[group].entries.get(value) ?? EMPTY;
  }

  tally(tally: T, key: string): number {
    return this.tallies[tally].entries.get(key) ?? 0;
  }

  all(): IterableIterator<R> {
    return this.byId.values();
  }

  /** Stores a new record made from `fields`; throws, storing nothing, when one has its id. */
  insert(fields: R): R {
    const record = this.add(fields);
    this.written(record.id, record);
    return record;
  }

  /** Changes a stored record in place, re-indexing what the change moved. */
  update(record: R, patch: Partial<Omit<R, "id">>): R {
    const before = this.keysOf(record);
    Object.assign(record, patch);
    this.reindex(record, before);
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
    for (const index of indexes(this.lookups)) leave(index, index.scope(record), index.value(record), record);
    for (const index of indexes(this.groups)) part(index, index.of(record), record);
    for (const index of indexes(this.tallies)) count(index, index.key(record), -index.amount(record));
    this.written(id, undefined);
    return true;
  }

  /** Replaces every record with these, telling nobody (a load says so as a whole). */
  fill(records: readonly R[]): void {
    this.clear();
    for (const fields of records) this.add(fields);
  }

  clear(): void {
    this.byId = new Map();
    for (const index of [...indexes(this.lookups), ...indexes(this.groups), ...indexes(this.tallies)]) index.entries.clear();
  }

  private add(fields: R): R {
    if (this.byId.has(fields.id)) throw new Error(`There are two ${this.name} records with the id ${fields.id}.`);
    const record = this.make(fields);
    this.byId.set(record.id, record);
    for (const index of indexes(this.lookups)) enter(index, record);
    for (const index of indexes(this.groups)) join(index, index.of(record), record);
    for (const index of indexes(this.tallies)) count(index, index.key(record), index.amount(record));
    return record;
  }

  /** What each index reads of a record, taken before a change and compared after it. */
  private keysOf(record: R): Array<string | number | null | undefined> {
    const keys: Array<string | number | null | undefined> = [];
    for (const index of indexes(this.lookups)) keys.push(index.scope(record), index.value(record));
    for (const index of indexes(this.groups)) keys.push(index.of(record));
    for (const index of indexes(this.tallies)) keys.push(index.key(record), index.amount(record));
    return keys;
  }

  private reindex(record: R, before: Array<string | number | null | undefined>): void {
    let i = 0;
    const next = () => before[i++];
    for (const index of indexes(this.lookups)) {
      const scope = next() as string;
      const value = next() as string | null | undefined;
      if (scope === index.scope(record) && value === index.value(record)) continue;
      leave(index, scope, value, record);
      enter(index, record);
    }
    for (const index of indexes(this.groups)) {
      const value = next() as string | null | undefined;
      if (value === index.of(record)) continue;
      part(index, value, record);
      join(index, index.of(record), record);
    }
    for (const index of indexes(this.tallies)) {
      const key = next() as string;
      const amount = next() as number;
      if (key === index.key(record) && amount === index.amount(record)) continue;
      count(index, key, -amount);
      count(index, index.key(record), index.amount(record));
    }
  }
}

function mapValues<K extends string, A, B>(specs: Record<K, A> | undefined, make: (spec: A) => B): Record<K, B> {
  return Object.fromEntries(Object.entries(specs ?? {}).map(([name, spec]) => [name, make(spec as A)])) as Record<K, B>;
}

function indexes<I>(byName: Record<string, I>): I[] {
  return Object.values(byName);
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
