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
    forms = [...new Set([apiKey, encoded(apiKey), new URLSearchParams({ k: apiKey }).toString().slice(2)])];
    if (spellingsOf.size >= REMEMBERED_KEYS) spellingsOf.delete(spellingsOf.keys().next().value!);
    spellingsOf.set(apiKey, (forms = forms.filter(Boolean).sort((a, b) => b.length - a.length)));
  }
  return forms;
}
const spellingsOf = new Map<string, string[]>();

/**
 * The key percent-encoded, or itself when it cannot be: a key with a lone surrogate is refused
 * when the client is created, and that error's message is redacted too.
 */
function encoded(apiKey: string): string {
  try {
    return encodeURIComponent(apiKey);
  } catch {
    return apiKey;
  }
}
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
  return redactor(apiKey)(value) as T;
}

/** How deep a chain of causes is followed (redacted, described, searched for a system code). */
export const MAX_CAUSES = 4;

/**
 * An error (or any cause) with the key out of its message, its causes and its own properties, so
 * it can be attached without leaking what a custom fetch put in it; the error itself when it holds
 * no key, so nothing (its class, its status) is lost for nothing.
 */
export function redactError(error: unknown, apiKey: string): unknown {
  try {
    return redactor(apiKey)(error);
  } catch {
    // Past what the walk guards itself against: a proxy whose traps throw, say.
    return "(a cause that could not be read, left out)";
  }
}

/** Far deeper than any answer of the API. */
const MAX_DEPTH = 64;

const UNREADABLE = "(could not be read, left out)";

/**
 * One walk over a value, errors included: an error inside a reason and a reason inside an error's
 * cause share the walked map, so a cycle through an error is left out like any other. Plain
 * objects, arrays and errors are walked; anything else keeps what it holds where the walk cannot
 * see it (a Request's URL, a Headers' values, a Map's entries), so it is left out, named, and a URL
 * becomes its text with the key out.
 */
function redactor(apiKey: string): (value: unknown) => unknown {
  const walked = new Map<object, unknown>();
  const walk = (value: unknown, depth: number, causes: number): unknown => {
    if (typeof value === "string") return redactText(value, apiKey);
    if (value === null || typeof value !== "object" || value instanceof Date) return value;
    if (depth > MAX_DEPTH) return "(nested too deep, left out)";
    if (walked.has(value)) return walked.get(value);
    walked.set(value, "(a cycle, left out)");
    let changed = false;
    const redact = (inner: unknown, causesBelow = causes) => {
      const clean = walk(inner, depth + 1, causesBelow);
      if (clean !== inner) changed = true;
      return clean;
    };
    // A getter that throws leaves out its own value, not the whole cause.
    const read = (key: PropertyKey): unknown => {
      try {
        return (value as Record<PropertyKey, unknown>)[key];
      } catch {
        changed = true;
        return UNREADABLE;
      }
    };
    // A property, its name redacted too (a symbol has no text to redact).
    const entry = (key: PropertyKey) => [typeof key === "string" ? redact(key) : key, redact(read(key))] as const;
    const proto: unknown = Object.getPrototypeOf(value);
    let result: unknown;
    if (value instanceof Error) {
      // Deeper causes are left out rather than passed on unread.
      const causeOf = (inner: unknown) => {
        if (causes < MAX_CAUSES) return redact(inner, causes + 1);
        changed = true;
        return new Error("(further causes left out)");
      };
      const aggregate = value instanceof AggregateError;
      const message = redact(read("message"));
      redact(read("stack"));
      const name = redact(read("name"));
      // A system code may be a getter on the class; it is kept, as text with the key out (and a
      // key in it makes the copy, as one in the message does).
      const rawCode = read("code");
      const code = typeof rawCode === "string" ? redact(rawCode) : undefined;
      // Read by key, not by enumeration: an error's message, stack and cause are not enumerable,
      // and neither may be what a custom error class keeps (inspect shows it all the same).
      const own = Reflect.ownKeys(value)
        .filter((key) => !(key === "message" || key === "stack" || key === "cause" || (aggregate && key === "errors")))
        .map(entry);
      const rawCause = read("cause");
      const cause = rawCause === undefined ? undefined : causeOf(rawCause);
      const rawErrors = aggregate ? read("errors") : undefined;
      const errors = Array.isArray(rawErrors)
        ? rawErrors.map((inner) => causeOf(inner))
        : rawErrors === undefined
          ? undefined
          : redact(rawErrors);
      if (changed) {
        const copy = new Error(String(message), cause === undefined ? undefined : { cause });
        copy.name = String(name);
        Object.assign(copy, code !== undefined && { code }, Object.fromEntries(own), errors !== undefined && { errors });
        result = copy;
      }
    } else if (Array.isArray(value)) {
      const out = value.map((inner) => redact(inner));
      if (changed) result = out;
    } else if (proto === Object.prototype || proto === null) {
      const out = Object.fromEntries(
        Reflect.ownKeys(value)
          .filter((key) => Object.prototype.propertyIsEnumerable.call(value, key))
          .map(entry),
      );
      if (changed) result = out;
    } else {
      changed = true;
      result = value instanceof URL ? redactText(value.href, apiKey) : `(a ${value.constructor?.name ?? "value"}, left out)`;
    }
    result = changed ? result : value;
    walked.set(value, result);
    return result;
  };
  return (value) => walk(value, 0, 0);
}
