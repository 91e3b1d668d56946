/** How the reports write their figures and verdicts (no side effects: the summary imports it too). */

export const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** A figure some platforms cannot give (a server's CPU off Linux): "n/a" rather than NaN. */
export const fmtOrNa = (n: number, digits = 0) => (Number.isFinite(n) ? fmt(n, digits) : "n/a");

export const verdict = (ok: boolean) => (ok ? "met" : "**missed**");

/**
 * A figure to `digits` decimals, or as many more as it takes for the rounding to stay on the side
 * of its target the figure is on (0.8951 shown as 0.895, not 0.90, next to "≥ 0.90" and "missed").
 */
export function figure(value: number, meets: (value: number) => boolean, digits = 2): string {
  for (let shown = digits; shown <= digits + 6; shown++) {
    const rounded = value.toFixed(shown);
    if (meets(Number(rounded)) === meets(value)) return rounded;
  }
  return String(value);
}

/**
 * How a figure's rounds fell about its target, so a reader can tell a miss from noise: the
 * lowest and highest round and how many met ("0.71 to 0.93; 2 of 5 rounds met").
 */
export function roundsAbout(values: number[], meets: (value: number) => boolean, show: (value: number) => string): string {
  const sorted = [...values].sort((x, y) => x - y);
  return `${show(sorted[0]!)} to ${show(sorted[sorted.length - 1]!)}; ${values.filter(meets).length} of ${values.length} rounds met`;
}

/**
 * Each round's figure in order, with the share of the machine's time the host took in it where known
 * ("0.82 (1%), 0.34 (35%)"), so a round far from the others can be matched to a disturbed machine.
 */
export function roundsWithShares(values: number[], shares: Array<number | undefined>, show: (value: number) => string): string {
  return values.map((value, i) => (shares[i] === undefined ? show(value) : `${show(value)} (${percent(shares[i]!, 0)})`)).join(", ");
}

/** A share (0.319) as a percentage ("31.9%"). */
export const percent = (share: number, digits = 1) => `${(share * 100).toFixed(digits)}%`;
