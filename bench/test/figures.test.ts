import { describe, expect, it } from "vitest";
import { figure, fmt, fmtOrNa, roundsAbout, roundsWithShares, verdict } from "../support/figures.js";
import { cpuTimes, parseProcStat, stolenShare } from "../support/machine.js";
import { describeRun } from "../support/report.js";
import { summaryPage } from "../support/summary-page.js";

describe("a report's figures", () => {
  const atLeast = (target: number) => (value: number) => value >= target;

  it("rounds to two decimals where rounding keeps the verdict", () => {
    expect(figure(0.9049, atLeast(0.9))).toBe("0.90");
    expect(figure(0.8949, atLeast(0.9))).toBe("0.89");
    expect(figure(5.126, atLeast(5), 1)).toBe("5.1");
  });

  it("shows more decimals where rounding would cross the target (0.8951 is not 0.90 next to 'missed')", () => {
    expect(figure(0.8951, atLeast(0.9))).toBe("0.895");
    expect(figure(4.96, atLeast(5), 1)).toBe("4.96");
    // One more decimal still rounds up to the target: as many as it takes.
    expect(figure(0.4996, atLeast(0.5))).toBe("0.4996");
    expect(figure(0.49999991, atLeast(0.5))).toBe("0.4999999");
    const under = (target: number) => (value: number) => value < target;
    expect(figure(9.9996, under(10), 1)).toBe("9.9996");
    expect(figure(-1.04, under(10), 1)).toBe("-1.0");
    const atMost = (target: number) => (value: number) => value <= target;
    expect(figure(2.004, atMost(2))).toBe("2.004");
    expect(figure(1.996, atMost(2))).toBe("2.00");
  });

  it("writes thousands with commas, and n/a for a figure the platform could not give", () => {
    expect(fmt(1234567)).toBe("1,234,567");
    expect(fmt(21.25, 1)).toBe("21.3");
    expect(fmtOrNa(NaN, 1)).toBe("n/a");
    expect(fmtOrNa(Infinity)).toBe("n/a");
    expect(fmtOrNa(42.04, 1)).toBe("42.0");
  });

  it("says where a figure's rounds fell about its target: lowest, highest, how many met", () => {
    const show = (value: number) => value.toFixed(2);
    expect(roundsAbout([0.93, 0.71, 0.88, 0.9, 0.8], atLeast(0.9), show)).toBe("0.71 to 0.93; 2 of 5 rounds met");
    const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
    expect(roundsAbout([0.031, -0.021, 0.14], (value) => value * 100 < 10, percent)).toBe("-2.1% to 14.0%; 2 of 3 rounds met");
  });

  it("lists each round's figure in order with the host's share of the machine in it, where known", () => {
    const show = (value: number) => value.toFixed(2);
    expect(roundsWithShares([0.82, 0.34, 0.9], [0.012, 0.35, undefined], show)).toBe("0.82 (1%), 0.34 (35%), 0.90");
  });

  it("marks a missed target so it stands out", () => {
    expect(verdict(true)).toBe("met");
    expect(verdict(false)).toBe("**missed**");
  });
});

describe("the results page", () => {
  const check = (what: string, met: boolean) => ({ what, value: met ? "1.00" : "0.80", target: "≥ 0.90", met });

  it("lists every check with a link to its report and counts the misses", () => {
    const page = summaryPage([
      {
        name: "client",
        checks: [check("lookup overhead", false)],
        run: { build: "Node v20; commit abc", startedAt: "2026-11-21 15:08 UTC" },
      },
      {
        name: "lookups",
        checks: [check("by phone", false), check("by email", true)],
        run: { build: "Node v20; commit abc", startedAt: "2026-11-21 14:57 UTC" },
      },
    ]);
    expect(page).toContain("| [lookups](lookups.md) | by phone | 0.80 | ≥ 0.90 | **missed** |");
    expect(page).toContain("| [lookups](lookups.md) | by email | 1.00 | ≥ 0.90 | met |");
    expect(page).toContain("2 of 3 checks missed.");
    // Reports in the order given, grouped by the build they measured, with the span of their start times.
    expect(page.indexOf("[client]")).toBeLessThan(page.indexOf("[lookups]"));
    expect(page).toContain("- Node v20; commit abc: client, lookups (started 2026-11-21 14:57 UTC to 15:08 UTC)");
  });

  it("keeps reports of different builds apart, and says when all checks are met", () => {
    const page = summaryPage([
      { name: "memory", checks: [check("bytes a contact", true)], run: { build: "commit a", startedAt: "2026-11-21 23:59 UTC" } },
      { name: "msw", checks: [check("msw mode", true)], run: { build: "commit b", startedAt: "2026-11-22 00:10 UTC" } },
      { name: "old", checks: [] },
    ]);
    expect(page).toContain("All 2 checks met.");
    expect(page).toContain("- commit a: memory (started 2026-11-21 23:59 UTC)");
    expect(page).toContain("- commit b: msw (started 2026-11-22 00:10 UTC)");
    expect(page).toContain("- build not recorded: old\n");
  });

  it("gives the full date of a span's end when it falls on another day", () => {
    const run = (startedAt: string) => ({ build: "commit a", startedAt });
    const page = summaryPage([
      { name: "http", run: run("2026-11-21 23:59 UTC") },
      { name: "lookups", run: run("2026-11-22 00:10 UTC") },
    ]);
    expect(page).toContain("(started 2026-11-21 23:59 UTC to 2026-11-22 00:10 UTC)");
  });
});

describe("the machine's state during a run", () => {
  it("reads the time stolen and the whole from /proc/stat's cpu line, guest time not counted twice", () => {
    const stat =
      "cpu  1022860 756 93488 849975 3129 0 10082 337429 500 7\ncpu0 511430 378 46744 424987 1564 0 5041 168714 0 0\nintr 1 2 3\n";
    expect(parseProcStat(stat)).toEqual({ steal: 337429, total: 1022860 + 756 + 93488 + 849975 + 3129 + 0 + 10082 + 337429 });
    expect(parseProcStat("intr 1 2 3\n")).toBeUndefined();
    expect(parseProcStat("cpu  a b c d\n")).toBeUndefined();
  });

  it("gives the share the host took between two readings, and nothing it cannot tell", () => {
    expect(stolenShare({ steal: 100, total: 1000 }, { steal: 420, total: 2000 })).toBeCloseTo(0.32);
    expect(stolenShare(undefined, { steal: 1, total: 2 })).toBeUndefined();
    expect(stolenShare({ steal: 1, total: 2 }, { steal: 1, total: 2 })).toBeUndefined();
    // On Linux this machine's own reading parses; elsewhere there is none.
    if (process.platform === "linux") expect(cpuTimes()).toMatchObject({ steal: expect.any(Number), total: expect.any(Number) });
  });

  it("opens a report with it, and marks a run the host took a tenth or more of", () => {
    const run = { build: "Node v20.20.2, 2 cores; commit abc", startedAt: "2026-11-22 10:10 UTC" };
    expect(describeRun({ ...run, stolen: 0.03 })).toBe(
      "Node v20.20.2, 2 cores; commit abc, 2026-11-22 10:10 UTC; the host took 3.0% of the machine's time during the run (steal)",
    );
    expect(describeRun({ ...run, stolen: 0.319 })).toMatch(
      /took 31\.9% of the machine's time during the run \(steal\): \*\*a disturbed run\*\*/,
    );
    expect(describeRun({ ...run, stolen: null })).toBe("Node v20.20.2, 2 cores; commit abc, 2026-11-22 10:10 UTC");
  });

  it("is on the results page: disturbed reports named above the table, each build's range below it", () => {
    const check = { what: "by phone", value: "0.52", target: "≥ 0.90", met: false };
    const page = summaryPage([
      { name: "http", checks: [check], run: { build: "commit a", startedAt: "2026-11-22 10:10 UTC", stolen: 0.03 } },
      { name: "lookups", checks: [check], run: { build: "commit a", startedAt: "2026-11-22 10:20 UTC", stolen: 0.32 } },
      { name: "old", checks: [], run: { build: "commit b", startedAt: "2026-11-21 10:00 UTC" } },
    ]);
    expect(page).toContain("**Disturbed runs**: the host took 10.0% or more of the machine's time (steal) while lookups (32.0%) ran.");
    expect(page.indexOf("**Disturbed runs**")).toBeLessThan(page.indexOf("| Report |"));
    expect(page).toContain(
      "- commit a: http, lookups (started 2026-11-22 10:10 UTC to 10:20 UTC); the host took 3.0% to 32.0% of the machine's time\n",
    );
    expect(page).toContain("- commit b: old (started 2026-11-21 10:00 UTC)\n");
    const calm = summaryPage([
      { name: "http", checks: [check], run: { build: "commit a", startedAt: "2026-11-22 10:10 UTC", stolen: 0.03 } },
    ]);
    expect(calm).not.toContain("Disturbed");
    expect(calm).toContain("; the host took 3.0% of the machine's time\n");
  });
});
