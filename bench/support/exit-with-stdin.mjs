/**
 * Preloaded (`node --import`) into an intake-server a benchmark starts (startCli in targets.ts):
 * the server stops, as on SIGTERM, when its stdin closes, which it does when the benchmark that
 * started it dies, however that ended. Plain JavaScript, so the server's start carries no loader.
 */
if (process.env.BENCH_EXIT_WITH_STDIN === "1") {
  process.stdin.on("end", () => process.kill(process.pid, "SIGTERM")).resume();
}
