import { describe, expect, it } from "vitest";
import { figure, fmt, fmtOrNa, roundsAbout, verdict } from "../support/figures.js";
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

  it("marks a missed target so it stands out", () => {
    expect(verdict(true)).toBe("met");
    expect(verdict(false)).toBe("**missed**");
  });
});

describe("the results page", () => {
  const check = (what: string, met: boolean) => ({ what, value: met ? "1.00" : "0.80", target: "≥ 0.90", met });

  it("lists every check with a link to its report and counts the misses", () => {
    const page = summaryPage([
      { name: "client", checks: [check("lookup overhead", false)], run: { build: "Node v20; commit abc", startedAt: "2026-11-21 15:08 UTC" } },
      { name: "lookups", checks: [check("by phone", false), check("by email", true)], run: { build: "Node v20; commit abc", startedAt: "2026-11-21 14:57 UTC" } },
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
