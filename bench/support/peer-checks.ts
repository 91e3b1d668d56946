/** The targets of bench/peers.ts, from its medians: pure, so what counts as met is tested. */
import { figure, fmt } from "./figures.js";
import type { Check } from "./summary-page.js";

export const TARGET = { ratio: 1.5, startMs: 400 };

/** One server's medians: per route, req/s and p99 (ms); its start to first answer; its resident memory at rest (bytes). */
export interface ServerFigures {
  server: string;
  intake: boolean;
  routes: Record<string, { rps: number; p99: number }>;
  startMs: number;
  rssAtRest?: number;
}

const mib = (bytes: number) => `${fmt(bytes / 2 ** 20)} MiB`;

/**
 * On every route, `intake` against the fastest peer there (the most req/s): at least TARGET.ratio
 * of its req/s with a p99 no higher. The CLI's start to first answer within TARGET.startMs. Its
 * resident memory at rest no more than the smallest peer's.
 */
export function peerChecks(servers: ServerFigures[], intake: string): Check[] {
  const ours = servers.find((s) => s.server === intake);
  if (!ours) throw new Error(`No figures for ${intake}`);
  const peers = servers.filter((s) => !s.intake);
  if (peers.length === 0) throw new Error("No peer to compare with");
  const checks: Check[] = [];
  for (const [route, mine] of Object.entries(ours.routes)) {
    const fastest = peers.filter((p) => p.routes[route]).sort((a, b) => b.routes[route]!.rps - a.routes[route]!.rps)[0];
    if (!fastest) continue;
    const theirs = fastest.routes[route]!;
    const ratio = mine.rps / theirs.rps;
    const meets = (value: number) => value >= TARGET.ratio;
    checks.push({
      what: `${route}: ${intake} / the fastest peer, ${fastest.server} (req/s; p99)`,
      value: `${figure(ratio, meets)}; ${fmt(mine.p99)} ms / ${fmt(theirs.p99)} ms`,
      target: `≥ ${TARGET.ratio}; p99 no higher`,
      met: meets(ratio) && mine.p99 <= theirs.p99,
    });
  }
  checks.push({
    what: `${intake}: start to first answer (median)`,
    value: `${fmt(ours.startMs)} ms`,
    target: `≤ ${TARGET.startMs} ms`,
    met: ours.startMs <= TARGET.startMs,
  });
  const measured = peers.filter((p) => p.rssAtRest !== undefined);
  if (ours.rssAtRest !== undefined && measured.length > 0) {
    const smallest = measured.sort((a, b) => a.rssAtRest! - b.rssAtRest!)[0]!;
    checks.push({
      what: `${intake}: resident memory at rest / the smallest peer's, ${smallest.server}`,
      value: `${mib(ours.rssAtRest)} / ${mib(smallest.rssAtRest!)}`,
      target: "≤",
      met: ours.rssAtRest <= smallest.rssAtRest!,
    });
  }
  return checks;
}
