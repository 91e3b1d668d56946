/** How the reports write their figures and verdicts (no side effects: the summary imports it too). */

export const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** A figure some platforms cannot give (a server's CPU off Linux): "n/a" rather than NaN. */
export const fmtOrNa = (n: number, digits = 0) => (Number.isFinite(n) ? fmt(n, digits) : "n/a");

export const verdict = (ok: boolean) => (ok ? "met" : "**missed**");

/**
 * A figure to `digits` decimals, or one more when rounding would put it on the other side of its
 * target (0.8955 shown as 0.90 next to "≥ 0.90" and "missed").
 */
export function figure(value: number, meets: (value: number) => boolean, digits = 2): string {
  const rounded = value.toFixed(digits);
  return meets(Number(rounded)) === meets(value) ? rounded : value.toFixed(digits + 1);
}
