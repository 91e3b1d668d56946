// Preloaded into a CLI child (--import): in the second node the CLI starts for the server (which the
// CLI marks with INTAKE_SERVER_PARENT_PID), says its pid on stderr and holds its start for two
// seconds, so a test can end the CLI while the server's node is still loading.
if (process.env.INTAKE_SERVER_PARENT_PID !== undefined) {
  process.stderr.write(`server node loading: ${process.pid}\n`);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2000);
}
