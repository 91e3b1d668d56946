// toE164 answers as libphonenumber-js's full parse does, for the "+1 and ten digits" it takes as sent.
import { parsePhoneNumberFromString } from "libphonenumber-js";
import { describe, expect, it } from "vitest";
import { toE164 } from "../../src/domain/phone.js";

/** The full parse's answer: the E.164 number, or "refused". */
function fullParse(input: string): string {
  const parsed = parsePhoneNumberFromString(input, { extract: false });
  return parsed?.isPossible() && !parsed.ext ? parsed.number : "refused";
}

function answer(input: string): string {
  try {
    return toE164(input);
  } catch {
    return "refused";
  }
}

describe("phone numbers", () => {
  it("answers +1 and ten digits as the full parse does, whatever the first three digits", () => {
    let state = 20261126;
    const random = () => (state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32;
    const mismatches: string[] = [];
    for (let start = 0; start < 1000; start++) {
      for (let k = 0; k < 5; k++) {
        const input = `+1${String(start).padStart(3, "0")}${String(Math.floor(random() * 1e7)).padStart(7, "0")}`;
        if (answer(input) !== fullParse(input)) mismatches.push(`${input}: ${answer(input)}, full parse ${fullParse(input)}`);
      }
    }
    expect(mismatches.slice(0, 20)).toEqual([]);
  });

  it("leaves every other form to the full parse", () => {
    for (const input of ["+1 (415) 555-0123", "+1415555012", "+141555501234", "+44 7700 900123", "+1 415 555 0123 ext. 7"]) {
      expect(answer(input)).toBe(fullParse(input));
    }
  });
});
