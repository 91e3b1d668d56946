/**
 * What the adapters need of an Intake beyond what its users call: the core on its own request
 * shapes, the last-resort answer, the hold on answers, the rollback of the data file, where to
 * report their failures, the dashboard's files. Kept off the public `Intake` so its users see only
 * what they call; `createIntake` attaches them here, and the adapters (the node adapter, the data
 * file, testing, and through `@intake/server/hosting` the Worker) reach them with `internals`.
 */
import type { Servable } from "./adapters/node.js";
import type { Persisted } from "./durable/write-through.js";

/** Every narrow interface an adapter declares, in one: what `internals(intake)` gives. */
export interface IntakeInternals extends Servable, Persisted {}

// Keyed by the Intake itself: a copy of it (`{ ...intake }`) has none, as nothing outside should.
const attached = new WeakMap<object, IntakeInternals>();

/** Called by createIntake, once, for the Intake it returns. */
export function attachInternals<T extends object>(intake: T, inner: IntakeInternals): T {
  attached.set(intake, inner);
  return intake;
}

/** An Intake's adapter-facing parts. Throws for anything createIntake did not make. */
export function internals(intake: object): IntakeInternals {
  const inner = attached.get(intake);
  if (!inner) throw new TypeError("Expected an Intake made by createIntake (a copy of one, `{ ...intake }`, is not one).");
  return inner;
}
