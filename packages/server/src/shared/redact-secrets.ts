/**
 * Secrets out of words that came from outside (a model endpoint's error, a webhook receiver's
 * answer), before they are stored, printed or published: each configured secret, whole or
 * URL-encoded, and any masked key, become `[REDACTED]`.
 *
 * Secrets are found by their last 8 characters: the text is read once, each 8 characters of it
 * looked up in a map, so the cost grows with the text, not with how many secrets there are (an
 * account's key and webhook secret each, for thousands of accounts). A store keeps the map for its
 * records (domain/secrets.ts); `fixedSecrets` makes one for a few known ones.
 */

/** A secret shorter than this is not searched for: it would be found in ordinary words. */
export const MIN_SECRET_LENGTH = 8;
export const REDACTED = "[REDACTED]";

/** The secrets whose last 8 characters are `tail` (most often none): what a text is searched for. */
export interface Secrets {
  endingWith(tail: string): readonly string[];
}

export const NONE: readonly string[] = [];

/** The key of a secret in a `Secrets` map; null for one too short to search for. */
export const tailOf = (secret: string | null | undefined): string | null =>
  secret && secret.length >= MIN_SECRET_LENGTH ? secret.slice(-MIN_SECRET_LENGTH) : null;

/** A few secrets known when the server starts (the model key, the admin token). */
export function fixedSecrets(secrets: Iterable<string | null | undefined>): Secrets {
  const byTail = new Map<string, string[]>();
  for (const secret of secrets) {
    const tail = tailOf(secret);
    if (tail) byTail.set(tail, [...(byTail.get(tail) ?? []), secret!]);
  }
  return { endingWith: (tail) => byTail.get(tail) ?? NONE };
}

/** Every secret of each. */
export function joinSecrets(...all: Secrets[]): Secrets {
  return {
    endingWith(tail) {
      let found = NONE;
      for (const secrets of all) {
        const more = secrets.endingWith(tail);
        if (more.length > 0) found = found.length > 0 ? [...found, ...more] : more;
      }
      return found;
    },
  };
}

/** The text with every secret in it redacted, plain or URL-encoded, and every masked key. */
export function redactSecrets(text: string, secrets: Secrets): string {
  const plain = withoutMasked(withoutSecrets(text, secrets));
  if (!plain.includes("%")) return plain;
  // An encoded secret is found in the text decoded; which is then what is kept, as the
  // encoded form's place in the text it came in cannot be told from the decoded one's.
  const decoded = percentDecoded(plain);
  const clean = withoutMasked(withoutSecrets(decoded, secrets));
  return clean === decoded ? plain : clean;
}

/** The text with each secret found in it replaced. */
function withoutSecrets(text: string, secrets: Secrets): string {
  const found: Array<[number, number]> = [];
  for (let end = MIN_SECRET_LENGTH; end <= text.length; end++) {
    for (const secret of secrets.endingWith(text.slice(end - MIN_SECRET_LENGTH, end))) {
      const start = end - secret.length;
      if (start >= 0 && text.startsWith(secret, start)) found.push([start, end]);
    }
  }
  if (found.length === 0) return text;
  found.sort((a, b) => a[0] - b[0]);
  let out = "";
  let at = 0;
  for (const [start, end] of found) {
    if (end <= at) continue;
    // One that overlaps the last redaction extends it.
    if (start >= at) out += `${text.slice(at, start)}${REDACTED}`;
    at = end;
  }
  return out + text.slice(at);
}

/**
 * A key shown masked, as OpenAI and gateways do (`sk-proj-****…****abcd`): a run of three or more
 * `*` or `•` joined to a key's characters. Replaced whole, whatever key it masks: its visible ends
 * are a key's own characters too.
 */
const MASKED = /[\w+/=-]*[*•]{3,}[\w+/=-]*/g;
const KEY_CHARACTER = /[\w+/=-]/;

function withoutMasked(text: string): string {
  if (!text.includes("***") && !text.includes("•••")) return text;
  return text.replace(MASKED, (token) => (token.length >= MIN_SECRET_LENGTH && KEY_CHARACTER.test(token) ? REDACTED : token));
}

/** Each run of %XX escapes decoded where it is valid UTF-8; anything else (a bare `%`) kept as it is. */
function percentDecoded(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}
