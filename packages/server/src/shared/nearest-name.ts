/**
 * The name a person meant, among the known ones: for a did-you-mean in an error (an unknown field,
 * a template's placeholder, an id that names nothing).
 */
import { closestMatch } from "leven";

const normalize = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, "");

/**
 * The candidate a name was meant as: the same but for case and separators (`first_name`,
 * `apikey`); with `misspelt`, also one a typo or two away (`latency` for `latencyMs`). Typos
 * count only in a did-you-mean: a parameter in another form's spelling is a different error.
 */
export function nearestName(name: string, candidates: readonly string[], options: { misspelt?: boolean } = {}): string | undefined {
  const wanted = normalize(name);
  const same = candidates.find((candidate) => normalize(candidate) === wanted);
  if (same || !options.misspelt || wanted.length < 4) return same;
  const byNormal = new Map(candidates.map((candidate) => [normalize(candidate), candidate]));
  const maxDistance = Math.min(2, Math.floor(wanted.length / 3));
  const match = closestMatch(wanted, [...byNormal.keys()], { maxDistance });
  return match === undefined ? undefined : byNormal.get(match);
}
