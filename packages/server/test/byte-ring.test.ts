// The journal's storage refuses a writer that claims more than its room, and cannot be overrun.
import { describe, expect, it } from "vitest";
import { ByteRing } from "../src/byte-ring.js";

const texts = (ring: ByteRing) => {
  const out: string[] = [];
  ring.forEach((bytes, _view, start, end) => out.push(new TextDecoder().decode(bytes.subarray(start, end))));
  return out;
};
const put = (ring: ByteRing, text: string) => ring.push(text.length, (bytes, _view, offset) => new TextEncoder().encodeInto(text, bytes.subarray(offset)).written);

describe("ByteRing", () => {
  it("hands a writer only the room it reserved, and refuses one that says it wrote more, keeping what it held", () => {
    const ring = new ByteRing(4);
    put(ring, "first");
    let room = -1;
    ring.push(3, (bytes, _view, offset) => {
      room = bytes.length - offset;
      return 0;
    });
    expect(room).toBe(3);
    expect(() => ring.push(3, () => 4)).toThrow("A record of 4 bytes was written where 3 were reserved.");
    expect(() => ring.push(3, () => -1)).toThrow(RangeError);
    expect(texts(ring)).toEqual(["first", ""]);
  });

  it("takes a whole number of records, 0 or more", () => {
    for (const capacity of [1.5, -1, Number.NaN]) expect(() => new ByteRing(capacity)).toThrow(RangeError);
    const none = new ByteRing(0);
    put(none, "dropped");
    expect(texts(none)).toEqual([]);
  });
});
