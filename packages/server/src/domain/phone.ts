/**
 * Phone numbers are parsed with libphonenumber-js and stored and matched in E.164.
 *
 * One shortcut: "+1" and ten digits, the form most numbers arrive in, is already E.164 and a
 * possible number in every country that shares +1, so it is answered as sent. A full parse would
 * first test it against each of those countries' patterns to find its country, which E.164 does
 * not need, and that test is a large part of what a create or a lookup costs. A test holds the
 * shortcut to the full parse's answers.
 */
import { parsePhoneNumberFromString } from "libphonenumber-js";
import { badRequest } from "../shared/errors.js";

const EXAMPLE = "for example +14155550123";
const NANP_E164 = /^\+1\d{10}$/;

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
  if (NANP_E164.test(trimmed)) return trimmed;
  // The whole text must be the number: a number found inside other text would be stored without it, unsaid.
  const parsed = parsePhoneNumberFromString(trimmed, { extract: false });
  if (!parsed) {
    const within = parsePhoneNumberFromString(trimmed);
    if (within) {
      throw badRequest(
        "INVALID_PHONE",
        `Phone number ${JSON.stringify(input)} holds text besides the number: send the number alone (${within.number}).`,
      );
    }
    throw badRequest(
      "INVALID_PHONE",
      `Phone number must include a valid country code, starting with + (${EXAMPLE}); ${field} ${JSON.stringify(input)} has none.`,
    );
  }
  if (!parsed.isPossible()) {
    throw badRequest(
      "INVALID_PHONE",
      `Phone number ${JSON.stringify(input)} is not a possible number for country code +${parsed.countryCallingCode}.`,
    );
  }
  // E.164 has no extensions: storing the number without it would lose what the caller sent unsaid.
  if (parsed.ext) {
    throw badRequest(
      "INVALID_PHONE",
      `Phone number ${JSON.stringify(input)} has an extension (${parsed.ext}), which E.164 cannot hold: send the number alone (${parsed.number}).`,
    );
  }
  return parsed.number;
}
