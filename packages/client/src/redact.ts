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
  const forms = new Set([apiKey, encodeURIComponent(apiKey), new URLSearchParams({ k: apiKey }).toString().slice(2)]);
  return [...forms].filter(Boolean).sort((a, b) => b.length - a.length);
}

/** Removes every occurrence of the key from free text (a message built by someone else). */
export function redactText(text: string, apiKey: string): string {
  if (!apiKey) return text;
  let out = text;
  for (const form of spellings(apiKey)) out = out.split(form).join(REDACTED);
  return out;
}

/** A JSON-like value with the key removed from every string in it. */
export function redactValue<T>(value: T, apiKey: string): T {
  if (typeof value === "string") return redactText(value, apiKey) as T;
  if (value === null || typeof value !== "object") return value;
  const text = JSON.stringify(value);
  const clean = redactText(text, apiKey);
  return clean === text ? value : (JSON.parse(clean) as T);
}

/**
 * A copy of an error (and its causes) whose messages no longer carry the key, keeping name and
 * system code, so a cause can be attached without leaking what a custom fetch put in it.
 */
export function redactError(error: unknown, apiKey: string, depth = 0): unknown {
  if (!(error instanceof Error) || depth > 4) return typeof error === "string" ? redactText(error, apiKey) : error;
  const { code, cause } = error as Error & { code?: unknown };
  const copy = new Error(redactText(error.message, apiKey), cause === undefined ? undefined : { cause: redactError(cause, apiKey, depth + 1) });
  copy.name = error.name;
  if (typeof code === "string") Object.assign(copy, { code });
  if (error instanceof AggregateError) Object.assign(copy, { errors: error.errors.map((e) => redactError(e, apiKey, depth + 1)) });
  return copy;
}
