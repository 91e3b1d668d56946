/** Phone numbers are parsed with libphonenumber-js and stored and matched in E.164. */
import { parsePhoneNumberFromString } from "libphonenumber-js";
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
  const parsed = parsePhoneNumberFromString(trimmed);
  if (!parsed) {
    throw badRequest("INVALID_PHONE", `Phone number must include a valid country code, starting with + (${EXAMPLE}); ${field} ${JSON.stringify(input)} has none.`);
  }
  if (!parsed.isPossible()) {
    throw badRequest("INVALID_PHONE", `Phone number ${JSON.stringify(input)} is not a possible number for country code +${parsed.countryCallingCode}.`);
  }
  return parsed.number;
}
