/**
 * Runs the CLI again in a node started with other V8 flags (the young generation's size, which V8
 * reads only at start), as if the second node were this process: it gets this process's stdio,
 * environment and node flags, the signals that stop a server are passed on, and this process ends
 * as it ends (its exit code, or the signal that ended it). If this process is killed outright
 * (SIGKILL), the second one kills itself too: nothing is left holding the port or the data file.
 */
import { spawn } from "node:child_process";

/** Set in the second node's environment; its value is the pid of the process that started it. */
const PARENT = "INTAKE_SERVER_PARENT_PID";

// The signals that stop a server. A terminal's Ctrl-C sends SIGINT to both processes; the server
// stops once however many it gets.
const FORWARDED: NodeJS.Signals[] = process.platform === "win32" ? ["SIGINT", "SIGTERM", "SIGBREAK"] : ["SIGINT", "SIGTERM", "SIGHUP"];

/** Runs this script again as `node <flags> <this node's flags> <script> <arguments>`; never returns. */
export function respawn(flags: readonly string[]): Promise<never> {
  const child = spawn(process.execPath, [...flags, ...process.execArgv, process.argv[1]!, ...process.argv.slice(2)], {
    stdio: ["inherit", "inherit", "inherit", "ipc"],
    env: { ...process.env, [PARENT]: String(process.pid) },
  });
  const forward = (signal: NodeJS.Signals) => () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  const listeners = FORWARDED.map((signal) => [signal, forward(signal)] as const);
  for (const [signal, listener] of listeners) process.on(signal, listener);
  return new Promise<never>(() => {
    child.once("error", (error) => {
      process.stderr.write(`intake-server: cannot start node for the server: ${error.message}\n`);
      process.exit(1);
    });
    child.once("exit", (code, signal) => {
      for (const [name, listener] of listeners) process.off(name, listener);
      if (signal === null) process.exit(code ?? 1);
      // Ends the way the server ended, so whoever started this process sees the signal.
      setTimeout(() => process.exit(1), 2000);
      process.kill(process.pid, signal);
    });
  });
}

/**
 * In a node started by respawn: kills this process if the one that started it is gone without
 * passing anything on (killed outright), as that one's ending would have ended the server.
 */
export function endWithParent(): void {
  if (process.env[PARENT] === undefined || !process.send) return;
  delete process.env[PARENT];
  const end = () => process.kill(process.pid, "SIGKILL");
  // Gone already, while this node was loading: the channel closed before anyone listened.
  if (!process.connected) end();
  process.once("disconnect", end);
  // The channel is only a way to hear of the parent's end: it keeps nothing running.
  process.channel?.unref();
}
