/**
 * The API key must never reach a log line, an error message or an error's cause, including the
 * query form where it is part of the URL (and may be percent-encoded there). Everything the
 * client reports passes through here.
 */
export const REDACTED = "[REDACTED]";

export function redactUrl(url: URL | string): string {
  const copy = new URL(url);
  if (copy.searchParams.has("apiKey")) copy.searchParams.set("apiKey", REDACTED);
  return copy.toString().replace(encodeURIComponent(REDACTED), REDACTED);
}

/** Every spelling of the key that can appear in text: raw, percent-encoded, form-encoded. */
function spellings(apiKey: string): string[] {
  // Worked out once per key, not for every log line; only the last few keys are remembered, so a
  // program making a client per tenant does not keep every key it has seen.
  let forms = spellingsOf.get(apiKey);
  if (!forms) {
    forms = [...new Set([apiKey, encodeURIComponent(apiKey), new URLSearchParams({ k: apiKey }).toString().slice(2)])];
    if (spellingsOf.size >= REMEMBERED_KEYS) spellingsOf.delete(spellingsOf.keys().next().value!);
    spellingsOf.set(apiKey, (forms = forms.filter(Boolean).sort((a, b) => b.length - a.length)));
  }
  return forms;
}
const spellingsOf = new Map<string, string[]>();
const REMEMBERED_KEYS = 16;

/** Removes every occurrence of the key from free text (a message built by someone else). */
export function redactText(text: string, apiKey: string): string {
  if (!apiKey) return text;
  let out = text;
  for (const form of spellings(apiKey)) out = out.split(form).join(REDACTED);
  return out;
}

/**
 * A JSON-like value with the key removed from every string in it, names included; the value itself
 * when nothing needed removing. Walked rather than searched as JSON text, where a key with a quote
 * or a backslash in it would be escaped out of sight. Each object is walked once: a value shared
 * twice is redacted once, and a cycle (an abort reason can hold one) is left out.
 */
export function redactValue<T>(value: T, apiKey: string): T {
  return walk(value, apiKey, 0, new Map()) as T;
}

function walk(value: unknown, apiKey: string, depth: number, walked: Map<object, unknown>): unknown {
  if (typeof value === "string") return redactText(value, apiKey);
  if (value === null || typeof value !== "object") return value;
  // An error's message is not one of its enumerable properties.
  if (value instanceof Error) return redactError(value, apiKey);
  if (depth > MAX_DEPTH) return "(nested too deep, left out)";
  if (walked.has(value)) return walked.get(value);
  walked.set(value, "(a cycle, left out)");
  let changed = false;
  const redact = (inner: unknown) => {
    const clean = walk(inner, apiKey, depth + 1, walked);
    if (clean !== inner) changed = true;
    return clean;
  };
  const out = Array.isArray(value)
    ? value.map(redact)
    : Object.fromEntries(Object.entries(value).map(([name, inner]) => [redact(name), redact(inner)]));
  const result = changed ? out : value;
  walked.set(value, result);
  return result;
}

/** Far deeper than any answer of the API. */
const MAX_DEPTH = 64;

/** How deep a chain of causes is followed (redacted, described, searched for a system code). */
export const MAX_CAUSES = 4;

/**
 * A copy of an error (and its causes) whose messages no longer carry the key, keeping name and
 * system code, so a cause can be attached without leaking what a custom fetch put in it.
 */
export function redactError(error: unknown, apiKey: string, depth = 0): unknown {
  if (typeof error === "string") return redactText(error, apiKey);
  if (error === null || typeof error !== "object") return error;
  // Deeper causes are left out rather than passed on unread.
  if (depth > MAX_CAUSES) return new Error("(further causes left out)");
  if (!(error instanceof Error)) {
    try {
      return redactValue(error, apiKey);
    } catch {
      // A getter that throws.
      return "(a cause that could not be read, left out)";
    }
  }
  const { code, cause } = error as Error & { code?: unknown };
  const copy = new Error(redactText(error.message, apiKey), cause === undefined ? undefined : { cause: redactError(cause, apiKey, depth + 1) });
  copy.name = error.name;
  if (typeof code === "string") Object.assign(copy, { code });
  if (error instanceof AggregateError) Object.assign(copy, { errors: error.errors.map((e) => redactError(e, apiKey, depth + 1)) });
  return copy;
}
