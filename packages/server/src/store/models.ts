/**
 * The @mswjs/data models. Structured settings (a campaign's FAQs, follow-ups, ...) are kept as
 * JSON text, because the models hold flat values; the store parses them at its edge.
 */
import { ENTITY_TYPE, PRIMARY_KEY, factory, nullable, primaryKey } from "@mswjs/data";

/** Every model and its fields, in the order records hold them. */
export const MODELS = {
  account: {
    id: primaryKey(String),
    kind: String,
    name: String,
    email: nullable(String),
    userId: String,
    agencyId: nullable(String),
    apiKey: String,
    webhookUrl: nullable(String),
    webhookSecret: String,
    autoRechargeUrl: nullable(String),
    autoRechargeThreshold: nullable(Number),
    autoRechargeAmount: nullable(Number),
    defaultCampaignId: nullable(String),
    credits: Number,
    createdAt: String,
  },
  campaign: {
    id: primaryKey(String),
    accountId: String,
    settings: String,
    createdAt: String,
  },
  list: {
    id: primaryKey(String),
    accountId: String,
    name: String,
    campaignId: nullable(String),
    createdAt: String,
  },
  listMember: {
    id: primaryKey(String),
    listId: String,
    contactId: String,
    source: String,
    addedAt: String,
  },
  contact: {
    id: primaryKey(String),
    accountId: String,
    firstName: nullable(String),
    lastName: nullable(String),
    phone: nullable(String),
    email: nullable(String),
    customFields: nullable(String),
    fromId: nullable(String),
    customChannel: nullable(String),
    botPaused: Boolean,
    /** The campaign the conversation belongs to (the funnel that reached the contact, or the last one routed to). */
    campaignId: nullable(String),
    createdAt: String,
  },
  message: {
    id: primaryKey(String),
    accountId: String,
    contactId: String,
    direction: String,
    channel: String,
    messageSid: nullable(String),
    fromId: nullable(String),
    toId: nullable(String),
    messageType: String,
    body: String,
    status: String,
    mediaUrl: nullable(String),
    mediaContentType: nullable(String),
    reactionTo: nullable(String),
    campaignId: nullable(String),
    source: String,
    error: nullable(String),
    /** For an inbound message: what the bot did with it, and why. */
    botOutcome: nullable(String),
    createdAt: String,
  },
  delivery: {
    id: primaryKey(String),
    accountId: String,
    kind: String,
    messageId: nullable(String),
    url: nullable(String),
    webhookId: String,
    payload: String,
    state: String,
    attempts: Number,
    nextAttemptAt: nullable(String),
    lastError: nullable(String),
    createdAt: String,
    completedAt: nullable(String),
  },
  deliveryAttempt: {
    id: primaryKey(String),
    deliveryId: String,
    number: Number,
    startedAt: String,
    durationMs: Number,
    status: nullable(Number),
    error: nullable(String),
    nextAttemptAt: nullable(String),
  },
  alert: {
    id: primaryKey(String),
    accountId: String,
    contactId: String,
    campaignId: nullable(String),
    messageId: nullable(String),
    reason: String,
    createdAt: String,
  },
  creditTransaction: {
    id: primaryKey(String),
    accountId: String,
    amount: Number,
    balanceAfter: Number,
    description: String,
    source: String,
    idempotencyKey: nullable(String),
    createdAt: String,
  },
  idempotencyRecord: {
    id: primaryKey(String),
    accountId: String,
    key: String,
    fingerprint: String,
    status: Number,
    body: String,
    createdAt: String,
  },
};

export function createDatabase() {
  return withoutUnheardCopies(factory(MODELS));
}

/**
 * @mswjs/data copies every record it creates or updates, to announce it to listeners; only its
 * cross-tab sync listens, and only in a browser. Elsewhere nobody hears the copy, yet making it is
 * a third of what a create costs, so the database instance is given a serializer that hands the
 * record over as it is. The records stored are the same either way; where sync listens (or the
 * library's internals differ from what is checked here) nothing is changed.
 */
function withoutUnheardCopies<T extends object>(db: T): T {
  const instance = databaseInstance(db);
  if (instance && !heard(instance, "create", "update")) {
    instance.serializeEntity = (entity: unknown) => entity;
  }
  return db;
}

/**
 * Creates records in a database from createDatabase(), as its models' `create` would, faster, and
 * finds them again by id.
 *
 * A model's `create` builds the record field by field through generic path helpers: 4 µs for a
 * contact, 8 for a message, most of what a write to the API costs. The store always has every
 * field's value, so the record can be built directly: the fields in the model's order and the
 * two symbols @mswjs/data exports for a record's model and primary key, handed to the database
 * after the same duplicate check. A test holds the records to be identical to the model's own. A
 * record with a missing or non-plain value, or a database not built as expected, goes through
 * `create` as before.
 *
 * Reads by id go to the map each model keeps its records in, keyed by id: @mswjs/data's own
 * `findFirst` scans every record, and a map of every id beside it cost a second insert into a
 * map as large as the store for every record written (about 7% of what storing a received message
 * costs) and some 40 bytes a record. The table keeps such a map itself only where those maps are
 * not the store's alone: where the database is not built as expected, or where something listens
 * to its changes (its cross-tab sync, in a browser, writes other tabs' records into them).
 */
export function recordTable(db: Database) {
  const instance = databaseInstance(db);
  const kept = instance && !heard(instance, "create", "update", "delete") ? undefined : new Map<LookedUp, Map<string, object>>();
  const builders = new Map(
    Object.entries(MODELS).map(([model, definition]) => {
      const fields = Object.entries(definition).map(([name, kind]) => ({ name, nullable: typeof kind === "object" && !("getPrimaryKeyValue" in kind) }));
      return [model, recordBuilder(model, fields)] as const;
    }),
  );
  const viaModel = <M extends ModelName>(model: M, values: Fields<M>) => (db[model].create as (v: Fields<M>) => ReturnType<Database[M]["create"]>)(values);
  const build = <M extends ModelName>(model: M, values: Fields<M>): ReturnType<Database[M]["create"]> => {
    const given = values as Record<string, unknown>;
    const record = given.id && instance ? builders.get(model)?.(given) : undefined;
    // The model's create says so in its own words.
    if (!record || instance!.has(model, String(given.id))) return viaModel(model, values);
    instance!.create(model, record);
    return record as ReturnType<Database[M]["create"]>;
  };
  return {
    create<M extends ModelName>(model: M, values: Fields<M>): ReturnType<Database[M]["create"]> {
      const record = build(model, values);
      if (kept && isLookedUp(model)) {
        let byId = kept.get(model);
        if (!byId) kept.set(model, (byId = new Map()));
        byId.set(record.id, record);
      }
      return record;
    },
    /** The record of this model with this id. */
    get<M extends LookedUp>(model: M, id: string): ReturnType<Database[M]["create"]> | undefined {
      const record = kept ? kept.get(model)?.get(id) : instance!.getModel(model).get(id);
      return record as ReturnType<Database[M]["create"]> | undefined;
    },
    /** Forgets every record: after the database is dropped. */
    clear(): void {
      kept?.clear();
    },
  };
}

/**
 * A function that builds a model's record from values, or answers undefined when a value is missing
 * or not plain (the model's create then decides). Generated code, one per model, because the
 * record must be one object literal with every property in place: built up by keyed stores in a
 * loop, a record took 1.1-1.5 µs (the stores megamorphic), and past a dozen properties V8 makes it a
 * dictionary, twice the size (what the model's own create makes of a message); the literal takes
 * 0.2-0.3 µs. Its keys are the model's fields in order, then the two symbols @mswjs/data exports
 * for a record's model and primary key, as the model's create makes them. Where code cannot be
 * generated (a page whose Content-Security-Policy forbids it), every record goes through the
 * model's create.
 */
function recordBuilder(model: string, fields: Array<{ name: string; nullable: boolean }>): ((given: Record<string, unknown>) => object | undefined) | undefined {
  const take = fields.map(
    ({ name, nullable }, i) => `const v${i} = given[${JSON.stringify(name)}]; if (!(v${i} === null ? ${nullable} : isPlain(v${i}))) return undefined;`,
  );
  const literal = fields.map(({ name }, i) => `${JSON.stringify(name)}: v${i}`);
  const source = `return function build(given) {\n${take.join("\n")}\nreturn { ${literal.join(", ")}, [entityType]: model, [primaryKey]: "id" };\n};`;
  try {
    return new Function("isPlain", "entityType", "primaryKey", "model", source)(isPlain, ENTITY_TYPE, PRIMARY_KEY, model) as (given: Record<string, unknown>) => object | undefined;
  } catch {
    return undefined;
  }
}

/** The models whose records are looked up by id: the only ones the table's own map keeps (records deleted, idempotency records, never linger in it). */
const LOOKED_UP = ["account", "contact", "campaign", "list", "message", "delivery"] as const satisfies readonly ModelName[];
type LookedUp = (typeof LOOKED_UP)[number];
const isLookedUp = (model: ModelName): model is LookedUp => (LOOKED_UP as readonly string[]).includes(model);

/** Whether anything listens to these events of the database. */
const heard = (instance: DatabaseInstance, ...events: string[]) => events.some((event) => instance.events.listeners(event).length > 0);

const isPlain = (value: unknown) => typeof value === "string" || typeof value === "number" || typeof value === "boolean";

/** The parts of @mswjs/data's database instance (behind the models' API) this module relies on. */
interface DatabaseInstance {
  has(model: string, id: string): boolean;
  create(model: string, record: object): void;
  getModel(model: string): Map<string, object>;
  serializeEntity: (entity: unknown) => unknown;
  events: { listeners(event: string): unknown[] };
}

/** The database behind the models' API, if it is what this module was written against. */
function databaseInstance(db: object): DatabaseInstance | undefined {
  for (const symbol of Object.getOwnPropertySymbols(db)) {
    const candidate = (db as Record<symbol, Partial<DatabaseInstance> | undefined>)[symbol];
    if (
      typeof candidate?.has === "function" &&
      typeof candidate.create === "function" &&
      typeof candidate.getModel === "function" &&
      candidate.getModel("account") instanceof Map &&
      typeof candidate.serializeEntity === "function" &&
      typeof candidate.events?.listeners === "function"
    ) {
      return candidate as DatabaseInstance;
    }
  }
  return undefined;
}

export type Database = ReturnType<typeof createDatabase>;
export type ModelName = Exclude<keyof Database, symbol>;
type Entity<M extends ModelName> = ReturnType<Database[M]["create"]>;

export type AccountRecord = Entity<"account">;
export type CampaignRecord = Entity<"campaign">;
export type ListRecord = Entity<"list">;
export type ListMemberRecord = Entity<"listMember">;
export type ContactRecord = Entity<"contact">;
export type MessageRecord = Entity<"message">;
export type CreditTransactionRecord = Entity<"creditTransaction">;
export type IdempotencyRecord = Entity<"idempotencyRecord">;
export type DeliveryRecord = Entity<"delivery">;
export type DeliveryAttemptRecord = Entity<"deliveryAttempt">;
export type AlertRecord = Entity<"alert">;

/**
 * Scheduled work (webhook attempts, queued opening messages, follow-ups). Kept in a plain table
 * beside @mswjs/data rather than in it: jobs come and go all the time, and @mswjs/data deletes by
 * scanning every record.
 */
export interface JobRecord {
  id: string;
  kind: string;
  /** Epoch ms on the server's clock; null runs as soon as possible. */
  runAt: number | null;
  /** Groups jobs that are cancelled together (a contact's follow-ups). */
  key: string | null;
  payload: string;
  createdAt: string;
}

/** What each model's `create` takes. */
export type Fields<M extends ModelName> = Parameters<Database[M]["create"]>[0] & object;

export const MODEL_NAMES = [
  "account",
  "campaign",
  "list",
  "listMember",
  "contact",
  "message",
  "creditTransaction",
  "idempotencyRecord",
  "delivery",
  "deliveryAttempt",
  "alert",
] as const satisfies readonly ModelName[];
