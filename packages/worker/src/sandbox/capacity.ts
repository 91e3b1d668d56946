/**
 * What one sandbox holds at most. A Durable Object's isolate has 128 MB, the whole state lives in
 * it, and a row of its storage holds at most 2 MB: these keep a sandbox well inside both
 * (docs/workers.md says what was measured).
 */
export const LIMITS = {
  // Any one record stays under a storage row's 2 MB: a record can hold twice the text of the body
  // it came in, where JSON escapes it twice (a quote in a campaign's FAQ: its settings are JSON
  // text inside the record's JSON).
  maxBodyBytes: 896 * 1024,
  // A file embedded as a data URL: its base64, a third larger, fits the body.
  maxMediaBytes: 512 * 1024,
  // All of an account's files: a small part of the isolate's memory.
  maxAccountMediaBytes: 16 * 1024 * 1024,
};

/** The records a sandbox keeps at most; past them, what would add one is answered 507 SANDBOX_FULL. */
export const CAPACITY = { contacts: 20_000, messages: 100_000 };

/** The capacity, as the Worker's variables set it (wrangler.toml's [vars]), else CAPACITY. */
export function capacityOf(vars: { SANDBOX_MAX_CONTACTS?: string; SANDBOX_MAX_MESSAGES?: string }) {
  const most = (value: string | undefined, fallback: number) =>
    value !== undefined && Number.isInteger(Number(value)) && Number(value) > 0 ? Number(value) : fallback;
  return { contacts: most(vars.SANDBOX_MAX_CONTACTS, CAPACITY.contacts), messages: most(vars.SANDBOX_MAX_MESSAGES, CAPACITY.messages) };
}
