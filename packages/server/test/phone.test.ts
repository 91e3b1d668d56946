// The phone fast path answers exactly as libphonenumber-js's full parse, over every calling code.
import { getCountries, getCountryCallingCode, parsePhoneNumberFromString } from "libphonenumber-js";
import { describe, expect, it } from "vitest";
import { fastE164 } from "../src/operations/phone.js";

/** A small seeded generator, so a failure names an input that fails again. */
function generator(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("phone numbers: the fast path", () => {
  it("gives the full parse's E.164 for every number it accepts, and leaves the rest to it", () => {
    const random = generator(20261121);
    const codes = [...new Set(getCountries().map((country) => getCountryCallingCode(country)))];
    const digits = (n: number) => Array.from({ length: n }, () => Math.floor(random() * 10)).join("");
    const layouts = [
      (cc: string, national: string) => `+${cc}${national}`,
      (cc: string, national: string) => `+${cc} ${national.slice(0, 3)} ${national.slice(3, 6)} ${national.slice(6)}`.trim(),
      (cc: string, national: string) => `+${cc} (${national.slice(0, 3)}) ${national.slice(3, 6)}-${national.slice(6)}`,
    ];
    let accepted = 0;
    let checked = 0;
    const mismatches: string[] = [];
    for (const cc of codes) {
      for (let length = 4; length <= 14; length++) {
        for (let k = 0; k < 40; k++) {
          const input = layouts[k % layouts.length]!(cc, digits(length));
          checked++;
          const fast = fastE164(input.trim());
          if (fast === undefined) continue;
          accepted++;
          const full = parsePhoneNumberFromString(input.trim());
          const expected = full?.isPossible() ? full.number : "(refused)";
          if (expected !== fast) mismatches.push(`${input}: fast ${fast}, full ${expected}`);
        }
      }
    }
    expect(mismatches.slice(0, 20)).toEqual([]);
    // It must be the common case, or it is not worth having.
    expect(accepted / checked).toBeGreaterThan(0.15);
    expect(checked).toBeGreaterThan(90_000);
  });

  it("takes typical numbers without the full parse", () => {
    for (const input of ["+14155550123", "+1 (415) 555-0123", "+44 7700 900123", "+33 6 12 34 56 78", "+49 1512 3456789", "+61 412 345 678"]) {
      expect(fastE164(input)).toBe(parsePhoneNumberFromString(input)!.number);
    }
  });

  it("leaves national prefixes, extensions and letters to the full parse", () => {
    for (const input of ["+44 (0) 20 7946 0958", "+1 415 555 0123 ext. 7", "+1 415 CALL NOW", "+7 8 800 555 35 35"]) {
      expect(fastE164(input)).toBeUndefined();
    }
  });
});
