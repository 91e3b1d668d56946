/**
 * An answer waits for the data file's commit of the changes it confirms (as do the webhooks they
 * cause).
 */
import type { Step } from "../compose.js";

/** What an answer waits for before it is given, if anything: the data file's commit of its changes. */
export type AnswerHold = () => Promise<void> | undefined;

/** The holds put on answers (the data file's), and what they wait for together. */
export function answerHolds() {
  let holds: AnswerHold[] = [];
  const held: AnswerHold = () => {
    if (holds.length === 0) return undefined;
    const waits = holds.map((hold) => hold()).filter((wait) => wait !== undefined);
    return waits.length ? Promise.all(waits).then(() => undefined) : undefined;
  };
  return {
    held,
    add(hold: AnswerHold) {
      holds.push(hold);
      return () => (holds = holds.filter((other) => other !== hold));
    },
  };
}

/**
 * Holds the answer to a request that changed the state, or could confirm a change (any method
 * but GET: a retried grant answers what an earlier one did), until everything changed so far is
 * saved. A save that fails is answered in the route's error shape instead of the success it would
 * have confirmed (503 NOT_SAVED: its changes were undone). `version` counts the state's changes: a read answers at once.
 */
export function holdAnswer(hold: AnswerHold, version: () => number): Step {
  return async function holdAnswer(context, next) {
    const before = version();
    const answer = await next(context);
    // Errors too: what a failed request changed before it failed is saved before it is told.
    const wait = context.request.method === "GET" && version() === before ? undefined : hold();
    if (wait) await wait;
    return answer;
  };
}
