// The request pipeline on its own (src/http/compose.ts): steps run in the order they were added,
// each seeing what the ones before it added; a step that answers stops the chain; an error a
// step throws is answered where it was thrown, so the steps around it see an answer; a chain
// whose steps all hand on answers onUnanswered; a step that calls next twice is an error.
import { describe, expect, it } from "vitest";
import { Chain, type Ends, type Step } from "../../src/http/compose.js";
import type { Context } from "../../src/http/context.js";
import type { ApiResponse } from "../../src/contract/exchange.js";

const answer = (status: number, body: unknown = null): ApiResponse => ({
  status,
  headers: {},
  body: body === null ? null : JSON.stringify(body),
});
/** A context with only what these steps read: the chain hands it on as it is. */
const context = { requestId: "req_1" } as unknown as Context;

/** The ends, keeping what reached them. */
function ends() {
  const seen = { errors: [] as unknown[], unanswered: [] as Context[] };
  const value: Ends = {
    onError: (error) => {
      seen.errors.push(error);
      return answer(500, { error: String(error) });
    },
    onUnanswered: (current) => {
      seen.unanswered.push(current);
      return answer(404);
    },
  };
  return { seen, ends: value };
}

/** A step that logs its name on the way in and out and hands on. */
const passing =
  (log: string[], name: string): Step =>
  async (current, next) => {
    log.push(`${name} in`);
    const response = await next(current);
    log.push(`${name} out ${response.status}`);
    return response;
  };

describe("Chain", () => {
  it("runs the steps in the order they were added, each around the ones after it", async () => {
    const log: string[] = [];
    const { ends: e } = ends();
    const last: Step = async () => {
      log.push("c answers");
      return answer(200);
    };
    const run = Chain.start().then(passing(log, "a")).then(passing(log, "b")).then(last).compose(e);
    expect((await run(context)).status).toBe(200);
    expect(log).toEqual(["a in", "b in", "c answers", "b out 200", "a out 200"]);
  });

  it("hands each step the context the one before it passed on, with what it added", async () => {
    const addsUser: Step<unknown, { user: string }> = (current, next) => next({ ...current, user: "ada" });
    const addsRole: Step<{ user: string }, { role: string }> = (current, next) => next({ ...current, role: `${current.user}:admin` });
    const reads: Step<{ user: string; role: string }> = async (current) =>
      answer(200, { user: current.user, role: current.role, requestId: current.requestId });
    const run = Chain.start().then(addsUser).then(addsRole).then(reads).compose(ends().ends);
    expect(JSON.parse((await run(context)).body!)).toEqual({ user: "ada", role: "ada:admin", requestId: "req_1" });
  });

  it("stops at a step that answers: the steps after it do not run", async () => {
    const log: string[] = [];
    const { seen, ends: e } = ends();
    const refuses: Step = async () => answer(401);
    const run = Chain.start().then(passing(log, "a")).then(refuses).then(passing(log, "never")).compose(e);
    expect((await run(context)).status).toBe(401);
    expect(log).toEqual(["a in", "a out 401"]);
    expect(seen.unanswered).toEqual([]);
  });

  it("answers onUnanswered, with the context as the last step passed it on, when every step hands on", async () => {
    const { seen, ends: e } = ends();
    const adds: Step<unknown, { note: string }> = (current, next) => next({ ...current, note: "kept" });
    const run = Chain.start().then(adds).compose(e);
    expect((await run(context)).status).toBe(404);
    expect(seen.unanswered).toEqual([{ requestId: "req_1", note: "kept" }]);
    expect((await Chain.start().compose(e)(context)).status).toBe(404);
  });

  it("answers an error where it was thrown: onError gets it, and the steps before see that answer as any other", async () => {
    const log: string[] = [];
    const { seen, ends: e } = ends();
    const broken = new Error("step broke");
    const throws: Step = async () => {
      throw broken;
    };
    const run = Chain.start().then(passing(log, "a")).then(throws).then(passing(log, "never")).compose(e);
    const response = await run(context);
    expect(response).toEqual(answer(500, { error: "Error: step broke" }));
    expect(seen.errors).toEqual([broken]);
    expect(log).toEqual(["a in", "a out 500"]);
  });

  it("answers a step's own error with onError too, given the context that step was given", async () => {
    const contexts: Context[] = [];
    const e: Ends = {
      onError: (_, current) => {
        contexts.push(current);
        return answer(500);
      },
      onUnanswered: () => answer(404),
    };
    const adds: Step<unknown, { note: string }> = (current, next) => next({ ...current, note: "before the throw" });
    const throws: Step = () => Promise.reject(new Error("no"));
    await Chain.start().then(adds).then(throws).compose(e)(context);
    expect(contexts).toEqual([{ requestId: "req_1", note: "before the throw" }]);
  });

  it("refuses a step that calls next twice: the rest of the chain runs once, and the step's answer is the error's", async () => {
    const { seen, ends: e } = ends();
    let runs = 0;
    const twice: Step = async (current, next) => {
      await next(current);
      return next(current);
    };
    const counts: Step = async () => {
      runs++;
      return answer(200);
    };
    const response = await Chain.start().then(twice).then(counts).compose(e)(context);
    expect(runs).toBe(1);
    expect(response.status).toBe(500);
    expect(seen.errors.map((error) => (error as Error).message)).toEqual(["A pipeline step called next() more than once."]);
  });

  it("runs each request through the chain afresh: a second call is not taken for a second next", async () => {
    const { seen, ends: e } = ends();
    const run = Chain.start().then(passing([], "a")).compose(e);
    expect((await run(context)).status).toBe(404);
    expect((await run(context)).status).toBe(404);
    expect(seen.errors).toEqual([]);
  });
});
