/**
 * Faults injected on purpose, for testing an integration's retry logic: latency, an error status
 * in the operation's error shape, a dropped connection, on all or a fraction of the matching
 * requests, forever or a number of times; the status or drop instead of the operation, or after
 * its effect (the case an idempotency key exists for: applied, and the answer lost). The admin
 * API sets them; the front door's `injectFaults` step (http/steps/inject-faults.ts) applies them.
 */
import type { components } from "../generated/admin.js";
import type { IdSource } from "../shared/ids.js";
import { HttpError } from "../shared/errors.js";

export type FaultRuleInput = components["schemas"]["FaultRuleInput"];
export type FaultRule = components["schemas"]["FaultRule"];

export interface FaultHit {
  ruleId: string;
  latencyMs: number;
  status: number | null;
  retryAfter: number;
  drop: boolean;
  when: FaultRule["when"];
}

export class Faults {
  private rules: FaultRule[] = [];

  /**
   * `check` holds rules to the admin contract, however they come (at start, from code, over
   * HTTP): a rule such as `status: 200` would otherwise answer a success with an error's body.
   */
  constructor(
    private readonly initial: FaultRuleInput[],
    private readonly ids: IdSource,
    private readonly check: (inputs: unknown) => void,
    /** Whether the adapter can close a connection without an answer (a Cloudflare Worker cannot). */
    private readonly canDrop = true,
  ) {
    this.set(initial);
  }

  /** Replaces the rules; throws (changing nothing) when one breaks the contract or would do nothing. */
  set(inputs: FaultRuleInput[]): FaultRule[] {
    this.check(inputs);
    const idle = inputs.findIndex((input) => input.latencyMs === undefined && input.status === undefined && !input.drop);
    if (idle !== -1) throw new HttpError(400, "VALIDATION_ERROR", `Fault rule ${idle} does nothing: give it latencyMs, status or drop.`);
    const untimed = inputs.findIndex((input) => input.when !== undefined && input.status === undefined && !input.drop);
    if (untimed !== -1)
      throw new HttpError(
        400,
        "VALIDATION_ERROR",
        `Fault rule ${untimed} has when but no status or drop: when says whether they act before or after the operation (latency always comes before).`,
      );
    const promising = inputs.findIndex((input) => input.when === "after" && input.status === 429);
    if (promising !== -1) {
      throw new HttpError(
        400,
        "VALIDATION_ERROR",
        `Fault rule ${promising} answers 429 after the operation, but a 429 promises nothing was done, so a client repeats any call on it and would double the effect: give it a 5xx (502, 503) or drop.`,
      );
    }
    const dropping = inputs.findIndex((input) => input.drop);
    if (dropping !== -1 && !this.canDrop) {
      throw new HttpError(
        400,
        "VALIDATION_ERROR",
        `Fault rule ${dropping} drops the connection, which this server cannot do (a Cloudflare Worker always answers): give it a status (502, 503) or latencyMs instead.`,
      );
    }
    this.rules = inputs.map((input) => ({
      id: this.ids.id("flt_"),
      operationId: input.operationId ?? "*",
      latencyMs: input.latencyMs ?? 0,
      status: input.status ?? null,
      retryAfter: input.retryAfter ?? 1,
      drop: input.drop ?? false,
      when: input.when ?? "before",
      rate: input.rate ?? 1,
      remaining: input.times ?? null,
    }));
    return this.list();
  }

  list(): FaultRule[] {
    return this.rules.map((rule) => ({ ...rule }));
  }

  clear(): void {
    this.rules = [];
  }

  /** Back to the rules the server started with. */
  reset(): void {
    this.set(this.initial);
  }

  /**
   * What hits this request: every matching rule's latency, and the first status or drop. A rule
   * that would add nothing (a status or drop after one was chosen, and no latency) is passed over
   * whole: it draws no chance and spends none of its `times`.
   */
  pick(operationId: string): FaultHit | undefined {
    let hit: FaultHit | undefined;
    for (const rule of this.rules) {
      if (rule.operationId !== "*" && rule.operationId !== operationId) continue;
      if (rule.remaining === 0) continue;
      const decided = hit !== undefined && (hit.status !== null || hit.drop);
      const answers = !decided && (rule.status !== null || rule.drop);
      if (!answers && rule.latencyMs === 0) continue;
      if (rule.rate < 1 && this.ids.random() >= rule.rate) continue;
      if (rule.remaining !== null) rule.remaining--;
      hit ??= { ruleId: rule.id, latencyMs: 0, status: null, retryAfter: 1, drop: false, when: "before" };
      hit.latencyMs += rule.latencyMs;
      if (answers) {
        hit.ruleId = rule.id;
        hit.status = rule.status;
        hit.retryAfter = rule.retryAfter;
        hit.drop = rule.drop;
        hit.when = rule.when;
      }
    }
    return hit;
  }
}
