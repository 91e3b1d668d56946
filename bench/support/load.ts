/**
 * Load with autocannon (10 connections, time-bounded) and the bookkeeping of a fair comparison:
 * every target is measured in every round, in turn, so the machine's noise falls on all alike;
 * the report takes medians and ratios of medians.
 */
import autocannon from "autocannon";
import { processCpu } from "./cpu.js";
import { percent } from "./figures.js";
import { cpuTimes, stolenShare } from "./machine.js";
import type { Target } from "./targets.js";

export interface Call {
  method: "GET" | "POST";
  /** Relative to the target's base, query included. */
  path: string;
  body?: string;
}

export interface Route {
  name: string;
  /** The n-th request of a run to a target: routes that write vary it so each request does the real work. */
  call(n: number, target: Target): Call;
}

export interface Sample {
  requestsPerSecond: number;
  /** Milliseconds, as autocannon measures them (whole milliseconds). */
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** Requests answered in the run. */
  requests: number;
  /** The server process's CPU milliseconds over the run (user, system), where it has its own process on Linux. */
  serverCpuMs?: { user: number; system: number };
  /** The share of the machine's time the host took during the run (steal, Linux). */
  stolen?: number;
}

/** The server's CPU per request answered, in µs; undefined where it was not read. */
export const serverCpuMicros = ({ serverCpuMs: cpu, requests }: Sample) =>
  cpu && requests > 0 ? ((cpu.user + cpu.system) * 1000) / requests : undefined;

export const CONNECTIONS = 10;

/** Requests made so far per route and target: each target gets the route's sequence from 0, so writes never repeat on it. */
const made = new Map<string, number>();

/**
 * `seconds` of load on one route of a target. `onAnswer`, where given, is called as each answer
 * arrives, with its latency in milliseconds and its connection's number (0 to CONNECTIONS - 1):
 * bench:durability times the gaps between answers.
 */
export async function load(
  target: Target,
  route: Route,
  seconds: number,
  options: { onAnswer?: (latencyMs: number, connection: number) => void; connections?: number } = {},
): Promise<Sample> {
  const prefix = new URL(target.base).pathname.replace(/\/$/, "");
  const counter = `${route.name}\n${target.name}`;
  const cpuBefore = target.pid === undefined ? undefined : await processCpu(target.pid);
  const machineBefore = cpuTimes();
  const result = await autocannon({
    url: target.base,
    connections: options.connections ?? CONNECTIONS,
    duration: seconds,
    ...(options.onAnswer ? { setupClient: answers(options.onAnswer) } : {}),
    requests: [
      {
        setupRequest: (request) => {
          const n = made.get(counter) ?? 0;
          made.set(counter, n + 1);
          const call = route.call(n, target);
          return {
            ...request,
            method: call.method,
            path: `${prefix}${call.path}`,
            headers: { ...target.headers, ...(call.body === undefined ? {} : { "content-type": "application/json" }) },
            body: call.body,
          };
        },
      },
    ],
  });
  const stolen = stolenShare(machineBefore, cpuTimes());
  const cpuAfter = target.pid === undefined ? undefined : await processCpu(target.pid);
  return {
    ...(cpuBefore && cpuAfter ? { serverCpuMs: { user: cpuAfter.user - cpuBefore.user, system: cpuAfter.system - cpuBefore.system } } : {}),
    ...(stolen === undefined ? {} : { stolen }),
    requests: result.requests.total,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/**
 * Times the answers of a load as `load` reports them (pass its `onAnswer`): the longest time between
 * two answers arriving, to any connection, and the longest answer. Both count from the moment every
 * connection has had its first answer, so that connecting (a TLS handshake each) is not taken for a
 * pause.
 */
export function answerTimes(connections = CONNECTIONS, now = () => performance.now()) {
  const connected = new Set<number>();
  let last: number | undefined;
  const times = {
    longestGapMs: 0,
    maxLatencyMs: 0,
    onAnswer(latencyMs: number, connection: number) {
      const at = now();
      if (connected.size < connections) {
        connected.add(connection);
        if (connected.size === connections) last = at;
        return;
      }
      times.longestGapMs = Math.max(times.longestGapMs, at - last!);
      times.maxLatencyMs = Math.max(times.maxLatencyMs, latencyMs);
      last = at;
    },
  };
  return times;
}

/** autocannon's setupClient, numbering the connections and telling `onAnswer` of each answer. */
function answers(onAnswer: (latencyMs: number, connection: number) => void) {
  let connections = 0;
  return (client: autocannon.Client) => {
    const connection = connections++;
    client.on("response", (_status: number, _bytes: number, latencyMs: number) => onAnswer(latencyMs, connection));
  };
}

/** Samples of a comparison: samples[route][target], one per round. */
export type Samples = Record<string, Record<string, Sample[]>>;

/** A route and target's median of one figure, from a comparison's samples. */
export const mediansOf = (samples: Samples) => (route: string, target: string, figure: (sample: Sample) => number | undefined) =>
  medianOf(samples[route]![target]!, figure);

/**
 * Two targets' request rates on a route, compared: the ratio of their medians, and each round's
 * own ratio (the two measured in the same round), to show how far the noise carries the first.
 */
export function rateRatio(
  samples: Samples,
  route: string,
  numerator: string,
  denominator: string,
): { ratio: number; rounds: number[]; stolen: Array<number | undefined> } {
  const rates = (target: string) => samples[route]![target]!.map((s) => s.requestsPerSecond);
  const [top, bottom] = [rates(numerator), rates(denominator)];
  return {
    ratio: median(top) / median(bottom),
    rounds: roundRatios(top, bottom),
    stolen: roundsStolen(samples[route]![numerator]!, samples[route]![denominator]!),
  };
}

/** Each round's larger share of the machine's time taken by the host, over the two samples of a ratio. */
export function roundsStolen(a: Sample[], b: Sample[]): Array<number | undefined> {
  return a.map((sample, i) => {
    const shares = [sample.stolen, b[i]?.stolen];
    return shares.every((share) => share !== undefined) ? Math.max(...(shares as number[])) : undefined;
  });
}

/** Each round's a / b, rounds paired by index: the two sides of a ratio, measured in the same round. */
export function roundRatios(a: number[], b: number[]): number[] {
  if (a.length !== b.length) throw new Error(`Cannot pair rounds: ${a.length} against ${b.length}.`);
  return a.map((value, i) => value / b[i]!);
}

/** One figure's median over a target's samples; NaN where any sample lacks it (a server's CPU off Linux). */
export function medianOf(samples: Sample[], figure: (sample: Sample) => number | undefined): number {
  const values = samples.map(figure);
  return values.every((value) => value !== undefined) ? median(values) : NaN;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The list starting at its `round`-th item and wrapping round: who goes first takes turns. */
export function rotated<T>(list: readonly T[], round: number): T[] {
  return list.map((_, i) => list[(i + round) % list.length]!);
}

/**
 * The `round`-th of the list's orders, going through every one of them: where sides take turns
 * call by call, a rotation keeps each side behind the same other side every round (whatever one
 * leaves behind, a collection or a finaliser, always lands on the same next one); every order
 * puts each behind each other alike.
 */
export function permuted<T>(list: readonly T[], round: number): T[] {
  const orders = permutations(list);
  return orders[round % orders.length]!;
}

function permutations<T>(list: readonly T[]): T[][] {
  if (list.length <= 1) return [[...list]];
  return list.flatMap((first, i) => permutations([...list.slice(0, i), ...list.slice(i + 1)]).map((rest) => [first, ...rest]));
}

/** One load of a comparison: which route, which target, in which round. */
export interface Turn<R, T> {
  route: R;
  target: T;
  round: number;
}

/**
 * The order of a comparison's loads. Every target on every route, `rounds` times, the order of the
 * targets rotating each round. By default a route's rounds all run before the next route's; with
 * `routesTakeTurns`, each round loads every route, the first route rotating too, so no route has all
 * its rounds first (the first route still opens round 0): in bench:lookups, with every round of one
 * route run first, Intake paid more over the anchor on that route.
 */
export function schedule<R, T>(routes: readonly R[], targets: readonly T[], rounds: number, routesTakeTurns = false): Turn<R, T>[] {
  const turns: Turn<R, T>[] = [];
  const roundOf = (route: R, round: number) => rotated(targets, round).forEach((target) => turns.push({ route, target, round }));
  if (routesTakeTurns) {
    for (let round = 0; round < rounds; round++) for (const route of rotated(routes, round)) roundOf(route, round);
  } else {
    for (const route of routes) for (let round = 0; round < rounds; round++) roundOf(route, round);
  }
  return turns;
}

/**
 * Every target on every route, `rounds` times, in the order `schedule` gives. Returns
 * samples[route][target] (one per round); before a route's first round, a warm-up run of it on
 * every target.
 */
export async function alternate(
  targets: Target[],
  routes: Route[],
  options: { rounds: number; seconds: number; warmupSeconds: number; routesTakeTurns?: boolean; log?: (line: string) => void },
): Promise<Samples> {
  const samples: Samples = Object.fromEntries(
    routes.map((route) => [route.name, Object.fromEntries(targets.map((t) => [t.name, [] as Sample[]]))]),
  );
  const warmedUp = new Set<Route>();
  const warmUp = async (route: Route) => {
    if (warmedUp.has(route)) return;
    warmedUp.add(route);
    for (const target of targets) await load(target, route, options.warmupSeconds);
  };
  for (const { route, target, round } of schedule(routes, targets, options.rounds, options.routesTakeTurns)) {
    await warmUp(route);
    const sample = await load(target, route, options.seconds);
    samples[route.name]![target.name]!.push(sample);
    options.log?.(
      `${route.name} | ${target.name} | round ${round + 1}: ${Math.round(sample.requestsPerSecond)} req/s, p50 ${sample.p50} ms, p99 ${sample.p99} ms${sample.serverCpuMs ? `, server CPU ${serverCpuMicros(sample)!.toFixed(1)} µs a request` : ""}${sample.stolen === undefined ? "" : `, host took ${percent(sample.stolen)}`}${sample.non2xx || sample.errors ? `, ${sample.non2xx} non-2xx, ${sample.errors} errors` : ""}`,
    );
  }
  return samples;
}
