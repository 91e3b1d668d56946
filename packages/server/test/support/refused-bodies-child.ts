/**
 * Run by refused-bodies.test.ts in a process of its own, with `--expose-gc` and a small heap:
 * sends REQUESTS refused `POST /v1/contacts` with a valid key and a firstName of CHARS characters
 * through the fetch-style core, and prints one JSON line: the heap after full collections before
 * and after them, and the statuses answered. A server that kept the bodies dies of its heap first.
 *
 * Usage: node --expose-gc --max-old-space-size=N --import tsx --conditions=@intake/source refused-bodies-child.ts REQUESTS CHARS
 */
import { createIntake } from "@intake/server";

const [requests, chars] = process.argv.slice(2).map(Number) as [number, number];
const KEY = "ik_test_refused_bodies_0000001";
const intake = createIntake({ seed: { accounts: [{ id: "acc_big", name: "Big", apiKey: KEY }] } });
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("Run with node --expose-gc.");

const heapAfterGc = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};
/**
 * A body with a firstName this long, as bytes outside the heap (the server makes its own text of
 * it each time); its text is made here, so that nothing of this process holds it once made.
 */
const bodyOf = (length: number) => new Blob([JSON.stringify({ phone: "+14155550100", firstName: "n".repeat(length) })]);
const send = async (body: Blob) => {
  const response = await intake.fetch(
    new Request(`https://intake.test/v1/contacts?apiKey=${KEY}`, { method: "POST", headers: { "content-type": "application/json" }, body }),
  );
  await response.text();
  return response.status;
};

// The first refusals make what every later one reuses (compiled validators, caches): not counted.
for (let i = 0; i < 3; i++) await send(bodyOf(1000));
const body = bodyOf(chars);
const before = heapAfterGc();
const statuses: number[] = [];
for (let i = 0; i < requests; i++) statuses.push(await send(body));
const after = heapAfterGc();
await intake.close();
console.log(JSON.stringify({ before, after, statuses }));
