/**
 * The young generation the server runs in. At a million stored contacts every young-generation
 * collection walks the whole old generation's page list (~1.8 ms against ~0.6 at a thousand),
 * and V8 starts that generation at 1 MB, grows it under load and shrinks it after an idle spell:
 * a large store's lookups lost up to a quarter of their rate to it (bench/README.md). V8 reads
 * the size only when node starts (`NODE_OPTIONS` does not accept it), so the CLI starts node with
 * it, and a process embedding the server should be started with these flags.
 */
export const SEMI_SPACE_MB = 16;

/** The node flag that starts V8's young generation at `mb` MB and keeps it at least that. */
export const semiSpaceFlag = (mb: number) => `--min-semi-space-size=${mb}`;

/** The node flags the CLI runs the server with. */
export const SERVER_NODE_FLAGS: readonly string[] = [semiSpaceFlag(SEMI_SPACE_MB)];

/** Whether node was started with a young-generation size of its own (`--min-semi-space-size`). */
export function semiSpaceChosen(execArgv: readonly string[]): boolean {
  return execArgv.some((flag) => /^--min[-_]semi[-_]space[-_]size(=|$)/.test(flag));
}
