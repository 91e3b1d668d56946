/**
 * Phone numbers are parsed with libphonenumber-js and stored and matched in E.164.
 *
 * A full parse also works out the number's country, which for a shared calling code (+1 has 25
 * countries) means testing it against each one's patterns: about 12 µs, most of what a lookup
 * costs. The fast path skips that for the common case, a number already written internationally
 * with no national prefix to strip, and answers exactly as the full parse would (a differential
 * test holds it to that); anything else takes the full parse.
 */
import { Metadata, parsePhoneNumberFromString } from "libphonenumber-js";
import { badRequest } from "../http/errors.js";

const EXAMPLE = "for example +14155550123";

/**
 * The number in E.164, or INVALID_PHONE. A number needs a valid country code and a possible
 * length for it; fictional test numbers such as +15555555555 are accepted.
 */
export function toE164(input: string, field = "phone"): string {
  const trimmed = input.trim();
  if (!trimmed.startsWith("+")) {
    // A "+" sent unencoded in a query string arrives as a space.
    const hint = /^ \d/.test(input) ? " In a query string, send + as %2B." : "";
    throw badRequest("INVALID_PHONE", `Phone number must include a valid country code, starting with + (${EXAMPLE}).${hint}`);
  }
  const fast = fastE164(trimmed);
  if (fast !== undefined) return fast;
  // The whole text must be the number: a number found inside other text would be stored without it, unsaid.
  const parsed = parsePhoneNumberFromString(trimmed, { extract: false });
  if (!parsed) {
    const within = parsePhoneNumberFromString(trimmed);
    if (within) {
      throw badRequest("INVALID_PHONE", `Phone number ${JSON.stringify(input)} holds text besides the number: send the number alone (${within.number}).`);
    }
    throw badRequest("INVALID_PHONE", `Phone number must include a valid country code, starting with + (${EXAMPLE}); ${field} ${JSON.stringify(input)} has none.`);
  }
  if (!parsed.isPossible()) {
    throw badRequest("INVALID_PHONE", `Phone number ${JSON.stringify(input)} is not a possible number for country code +${parsed.countryCallingCode}.`);
  }
  // E.164 has no extensions: storing the number without it would lose what the caller sent unsaid.
  if (parsed.ext) {
    throw badRequest("INVALID_PHONE", `Phone number ${JSON.stringify(input)} has an extension (${parsed.ext}), which E.164 cannot hold: send the number alone (${parsed.number}).`);
  }
  return parsed.number;
}

/** What the fast path needs of a calling code's numbering plans. */
interface Plan {
  /** Lengths possible in every country that shares the code (the full parse checks the one it detects). */
  lengths: number[];
  /** National prefixes (or carrier codes) the full parse would try to strip, anchored; null for none. */
  prefix: RegExp | null;
}

// libphonenumber-js's Metadata has these methods, though its typings list fewer; if a version
// lacks them the fast path turns itself off and every number takes the full parse.
interface MetadataInternals {
  hasCallingCode(code: string): boolean;
  getCountryCodesForCallingCode(code: string): string[] | undefined;
  selectNumberingPlan(codeOrCountry: string): void;
  numberingPlan: { possibleLengths(): number[] | undefined; nationalPrefixForParsing(): string | undefined };
}

const metadata = new Metadata() as unknown as MetadataInternals;
const usable = ["hasCallingCode", "getCountryCodesForCallingCode", "selectNumberingPlan"].every(
  (name) => typeof (metadata as unknown as Record<string, unknown>)[name] === "function",
);
const plans = new Map<string, Plan | null>();

function planFor(code: string): Plan | null | undefined {
  if (plans.has(code)) return plans.get(code);
  if (!metadata.hasCallingCode(code)) return undefined;
  let lengths: number[] | undefined;
  const prefixes: string[] = [];
  for (const plan of [code, ...(metadata.getCountryCodesForCallingCode(code) ?? [])]) {
    metadata.selectNumberingPlan(plan);
    const possible = metadata.numberingPlan.possibleLengths();
    if (!possible) {
      lengths = undefined;
      break;
    }
    lengths = lengths ? lengths.filter((n) => possible.includes(n)) : [...possible];
    const prefix = metadata.numberingPlan.nationalPrefixForParsing();
    if (prefix) prefixes.push(`(?:${prefix})`);
  }
  const plan = lengths ? { lengths, prefix: prefixes.length ? new RegExp(`^(?:${[...new Set(prefixes)].join("|")})`) : null } : null;
  plans.set(code, plan);
  return plan;
}

/** E.164 without a full parse, or undefined when the full parse must decide. */
export function fastE164(trimmed: string): string | undefined {
  if (!usable) return undefined;
  const digits = plainDigits(trimmed);
  if (digits === undefined) return undefined;
  // Calling codes are prefix-free, one to three digits.
  for (let size = 1; size <= 3; size++) {
    const plan = planFor(digits.slice(1, 1 + size));
    if (plan === undefined) continue;
    if (plan === null) return undefined;
    const national = digits.slice(1 + size);
    if (!plan.lengths.includes(national.length)) return undefined;
    if (plan.prefix?.test(national)) return undefined;
    return digits;
  }
  return undefined;
}

/** "+" and the digits of a number written with ASCII digits and spaces, dots, dashes or brackets; else undefined. */
function plainDigits(text: string): string | undefined {
  // Most numbers come as "+" and digits already: those are returned as they are, since building a
  // copy a character at a time allocates a string per digit on every lookup and create.
  let i = 1;
  while (i < text.length && isDigit(text.charCodeAt(i))) i++;
  if (i === text.length && text.startsWith("+")) return text;
  let out = `+${text.slice(1, i)}`;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isDigit(c)) out += text[i];
    else if (c !== 32 && c !== 40 && c !== 41 && c !== 45 && c !== 46) return undefined; // space ( ) - .
  }
  return out;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}
