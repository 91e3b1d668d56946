import { describe, expect, it } from "vitest";
import { startParts, type CpuProfile } from "../support/start-profile.js";

const frame = (functionName: string, url = "") => ({ functionName, url });
const root = "file:///home/me/intake";

/** A start: node loads @mswjs/data (which loads date-fns), Intake's CLI checks its seed with ajv, the collector runs. */
const nodes: CpuProfile["nodes"] = [
  { id: 1, callFrame: frame("(root)"), children: [2, 5, 8, 9, 10] },
  { id: 2, callFrame: frame("run", "node:internal/modules/esm/module_job"), children: [3] },
  { id: 3, callFrame: frame("", `${root}/node_modules/@mswjs/data/lib/index.js`), children: [4] },
  { id: 4, callFrame: frame("", `${root}/node_modules/date-fns/index.js`) },
  { id: 5, callFrame: frame("main", `${root}/packages/server/dist/cli.js`), children: [6, 7] },
  { id: 6, callFrame: frame("compile", `${root}/node_modules/ajv/dist/core.js`) },
  { id: 7, callFrame: frame("create", `${root}/node_modules/@mswjs/data/lib/model/createModel.js`) },
  { id: 8, callFrame: frame("(garbage collector)") },
  { id: 9, callFrame: frame("resolve", "node:internal/modules/esm/resolve") },
  { id: 10, callFrame: frame("(program)") },
];
const profile = (samples: Array<[id: number, ms: number]>): CpuProfile => ({
  nodes,
  samples: samples.map(([id]) => id),
  timeDeltas: samples.map(([, ms]) => ms * 1000),
});
const byPart = (parts: ReturnType<typeof startParts>) => Object.fromEntries(parts.map((p) => [p.part, p.ms]));

describe("where a start goes", () => {
  it("charges a package with what it loads, apart from Intake's calls into it, and node's own work apart", () => {
    const parts = byPart(
      startParts(
        profile([
          [4, 300],
          [3, 40],
          [6, 90],
          [7, 30],
          [5, 80],
          [8, 50],
          [9, 100],
          [10, 40],
        ]),
        1_000,
      ),
    );
    expect(parts).toEqual({
      "@mswjs/data (with graphql, date-fns, lodash, msw's interceptors): loading it": 340,
      "@mswjs/data: called by Intake's code": 30,
      "ajv: called by Intake's code": 90,
      "Intake's own code": 80,
      "node: the garbage collector": 50,
      "node: finding, reading and compiling modules": 100,
      "node: the rest (its own start, sockets, TLS)": 40,
    });
  });

  it("counts only the samples until the first answer, the largest part first", () => {
    const parts = startParts(
      profile([
        [5, 100],
        [4, 300],
        [8, 50],
        [4, 500],
      ]),
      460,
    );
    expect(parts.map((p) => p.ms)).toEqual([300, 100, 50]);
    expect(parts[0]!.part).toMatch(/^@mswjs\/data .*loading it$/);
  });

  it("sums the parts under 1% of the start into one line", () => {
    const parts = byPart(
      startParts(
        profile([
          [5, 990],
          [8, 4],
          [10, 3],
          [9, 3],
        ]),
        1_000,
      ),
    );
    expect(parts).toEqual({ "Intake's own code": 990, "the rest, each under 1% (3 parts)": 10 });
  });
});
