#!/usr/bin/env node
/**
 * intake-server's entry. Node's compile cache goes on first, where node has it (22.1 and later),
 * so a start reuses what the last one compiled; the CLI (cli-main.ts) loads after it, as the
 * cache covers only modules loaded once it is on. NODE_DISABLE_COMPILE_CACHE=1 turns it off.
 */
import module from "node:module";

// Typed by @types/node for the oldest line supported, where it is missing.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
await import("./cli-main.js");
