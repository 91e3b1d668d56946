import { it } from "vitest";
import type { Target } from "../support/harness.js";

export type Register = (target: () => Target, options: { viaProxy: boolean }) => void;

const skip = Object.assign(() => {}, { each: () => () => {} }) as unknown as typeof it;

/**
 * `it` for a case whose requests are all valid under the contract (it also runs through prism
 * proxy), and `direct` for one that sends what the contract forbids, which a validating proxy
 * would stop before the server could answer; `direct` cases are not registered in a proxy run.
 */
export function cases(options: { viaProxy: boolean }) {
  return { it, direct: options.viaProxy ? skip : it };
}
