/**
 * Identifiers and secrets. Ids are opaque strings prefixed by kind (`ct_`, `msg_`, `lst_`,
 * `cmp_`, `sub_`, ...). In deterministic mode they come from counters and a seeded generator, so
 * two runs of the same test produce byte-identical responses; otherwise they are random.
 */
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const ALPHABET_CODES = Array.from(ALPHABET, (char) => char.charCodeAt(0));

/** A new API key: `ik_` and 40 characters of the base62 alphabet. */
export const newApiKey = (ids: IdSource): string => `ik_${ids.token(40)}`;

/**
 * Whether a text has the shape of an API key: `ik_` and 20 or more characters, the keys
 * `newApiKey` makes and the demo seed's (words joined by underscores).
 */
export const hasApiKeyShape = (value: string): boolean => API_KEY_SHAPE.test(value);
const API_KEY_PATTERN = "ik_[A-Za-z0-9_]{20,}";
const API_KEY_SHAPE = new RegExp(`^${API_KEY_PATTERN}$`);
/** The same shape anywhere in a text (a key pasted into a note, a path, a message), every match. */
export const API_KEY_SHAPE_IN_TEXT = new RegExp(API_KEY_PATTERN, "g");

export interface IdSource {
  /** A new id with this prefix, for example `ct_7Hq2xK9mPw`. */
  id(prefix: string): string;
  /** A new secret: `length` characters from the base62 alphabet. */
  token(length: number): string;
  /** Random bytes (webhook secrets). */
  bytes(length: number): Uint8Array;
  /** A number in [0, 1) (jitter). */
  random(): number;
  /** Where a deterministic source is, to carry it across a restart. */
  state(): IdState | undefined;
}

export interface IdState {
  counters: Record<string, number>;
  /** The generator's four words. */
  rng: [number, number, number, number];
}

export function randomIds(): IdSource {
  // Random bytes drawn 4 KiB at a time: one call to the system's generator per ~300 ids instead of one each.
  let pool = new Uint8Array(0);
  let offset = 0;
  const bytes = (length: number) => {
    if (length > POOL_BYTES) return crypto.getRandomValues(new Uint8Array(length));
    if (offset + length > pool.length) {
      pool = crypto.getRandomValues(new Uint8Array(POOL_BYTES));
      offset = 0;
    }
    offset += length;
    return pool.slice(offset - length, offset);
  };
  const token = (length: number) => {
    const drawn = bytes(length);
    let out = "";
    for (let i = 0; i < length; i++) out += ALPHABET[drawn[i]! % 62];
    return out;
  };
  // Built as one string: `prefix + token(12)` makes a two-part string that takes more memory,
  // and records keep ids by the hundred thousand.
  const id = (prefix: string) => {
    const codes: number[] = [];
    for (let i = 0; i < prefix.length; i++) codes.push(prefix.charCodeAt(i));
    for (const byte of bytes(12)) codes.push(ALPHABET_CODES[byte % 62]!);
    return String.fromCharCode.apply(null, codes);
  };
  return { id, token, bytes, random: Math.random, state: () => undefined };
}

const POOL_BYTES = 4096;

/** Counters per prefix for ids, and a seeded generator (sfc32) for secrets. */
export function deterministicIds(seed = 1, restored?: IdState): IdSource {
  const counters: Record<string, number> = { ...restored?.counters };
  let [a, b, c, d] = restored?.rng ?? [0x9e3779b9, 0x243f6a88, 0xb7e15162, seed >>> 0];
  const next = () => {
    let t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    t >>>= 0;
    return t / 4294967296;
  };
  if (!restored) for (let i = 0; i < 12; i++) next();
  const bytes = (length: number) => Uint8Array.from({ length }, () => Math.floor(next() * 256));
  return {
    id(prefix) {
      counters[prefix] = (counters[prefix] ?? 0) + 1;
      return prefix + String(counters[prefix]).padStart(6, "0");
    },
    token: (length) => Array.from({ length }, () => ALPHABET[Math.floor(next() * 62)]).join(""),
    bytes,
    random: next,
    state: () => ({ counters: { ...counters }, rng: [a, b, c, d] }),
  };
}

/**
 * Ids for things made by the thousand a second and never guessed at (request ids): a random
 * part drawn once, then a counter, so each costs a number's formatting rather than random bytes.
 */
export function serialIds(prefix: string, source: IdSource): () => string {
  const run = `${prefix}${source.token(6)}`;
  let next = 0;
  return () => `${run}${(next++).toString(36).padStart(6, "0")}`;
}

export function base64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
