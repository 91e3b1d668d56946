/**
 * The request pipeline: a chain of named steps, each `(context, next)`, in the manner of Hono's
 * `compose(middleware, onError, onNotFound)`. A step answers itself, or hands on with
 * `next(context)`, adding what it found to the context for the steps after it; its type says what
 * it needs and what it adds, so a chain whose steps come in the wrong order does not compile.
 *
 * Answering and errors belong to the pipeline: an error thrown by a step becomes its answer where
 * it was thrown (`onError`), so the steps around it (the journal, the hold for the data file) see
 * that answer as any other; a chain that runs out of steps answers `onUnanswered` (Hono's
 * `onNotFound`: here every request has a route by then, so it is a step missing, not a 404).
 */
import type { Context } from "./context.js";
import type { ApiResponse } from "../contract/exchange.js";

export type Next<C> = (context: C) => Promise<ApiResponse>;

/** A step that needs `Needs` of the context, and adds `Adds` to it for the steps after it. */
export type Step<Needs = unknown, Adds = unknown> = <C extends Context & Needs>(context: C, next: Next<C & Adds>) => Promise<ApiResponse>;

type AnyStep = (context: Context, next: Next<Context>) => Promise<ApiResponse>;

export interface Ends {
  /** The answer to an error a step threw. */
  onError(error: unknown, context: Context): ApiResponse;
  /** The answer when every step handed on. */
  onUnanswered(context: Context): ApiResponse;
}

/** A chain of steps being put together: `chain().then(a).then(b).compose(ends)`. */
export class Chain<C extends Context> {
  private constructor(private readonly steps: readonly AnyStep[]) {}

  static start(): Chain<Context> {
    return new Chain([]);
  }

  /** Adds a step; it must come after the steps that give it what it needs. */
  then<Needs, Adds>(this: Chain<C & Needs>, step: Step<Needs, Adds>): Chain<C & Adds> {
    return new Chain<C & Adds>([...this.steps, step as AnyStep]);
  }

  /** The chain as one function of a context. */
  compose({ onError, onUnanswered }: Ends): (context: Context) => Promise<ApiResponse> {
    const steps = this.steps;
    return (context) => {
      let reached = -1;
      const dispatch = async (index: number, current: Context): Promise<ApiResponse> => {
        // A step that called next twice would run the rest of the chain (and its writes) twice.
        if (index <= reached) throw new Error("A pipeline step called next() more than once.");
        reached = index;
        const step = steps[index];
        if (!step) return onUnanswered(current);
        try {
          return await step(current, (next) => dispatch(index + 1, next));
        } catch (error) {
          return onError(error, current);
        }
      };
      return dispatch(0, context);
    };
  }
}
