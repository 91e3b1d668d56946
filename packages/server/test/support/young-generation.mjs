// Preloaded into a CLI child (--import): at exit, says on stderr which process it was and the size
// its young generation (V8's new space) had when node started, which is the floor that
// --min-semi-space-size sets (V8 grows it under load and shrinks it back to that after idle spells).
import { getHeapSpaceStatistics } from "node:v8";

const newSpace = () => getHeapSpaceStatistics().find((space) => space.space_name === "new_space")?.space_size ?? 0;
const atStart = newSpace() / 2 ** 20;
process.on("exit", () => process.stderr.write(`young generation: ${JSON.stringify({ pid: process.pid, mb: atStart })}\n`));
