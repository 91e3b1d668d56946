/** A new domain: an empty store and the event stream, on this clock and id source. */
import { createEventStream } from "../events/stream.js";
import type { Clock } from "../shared/clock.js";
import type { IdSource } from "../shared/ids.js";
import { createStore } from "../store/store.js";
import type { Domain, Limits, Rules } from "./domain.js";

export function createDomain(options: { clock: Clock; ids: IdSource; limits: Limits; rules: Rules; onError: (error: unknown) => void }): Domain {
  const { clock, ids, limits, rules } = options;
  return { store: createStore(), events: createEventStream(() => clock.now(), options.onError), clock, ids, limits, rules };
}
