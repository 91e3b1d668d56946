/**
 * Numbers JSON cannot hold. JSON has no Infinity: JSON.parse reads a number past the largest
 * double (1e400) as Infinity, which JSON.stringify writes back as null, so such a value, once
 * stored, would not survive the server's snapshot or data file. Request bodies (customFields, a
 * seed, a snapshot) and imported snapshot files are checked whole, whatever their schema.
 */

/** The path to the first number in a value that is not finite, if one is. */
export function nonFinite(value: unknown, path: string[] = []): string[] | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? undefined : path;
  if (typeof value !== "object" || value === null) return undefined;
  // One path array for the walk (a snapshot holds many numbers): pushed on the way down, popped back.
  for (const key of Object.keys(value)) {
    path.push(key);
    if (nonFinite((value as Record<string, unknown>)[key], path)) return path;
    path.pop();
  }
  return undefined;
}

export const notFinite = (field: string) =>
  `${field} must be a finite number, at most ${Number.MAX_VALUE} either way (a larger one reads as Infinity, which JSON cannot hold).`;
