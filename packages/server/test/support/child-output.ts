/**
 * A child process's output for an error or assertion message, each line marked. Vitest reads lines
 * shaped like stack frames in a message as the error's own, opens their files for source maps, and fails
 * on tsx's (its code holds a sourceMappingURL comment that is not one), hiding the failure it was reporting.
 */
export const quoted = (output: string) => output.replace(/^/gm, "child | ");
