import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    // Every HTTPS test file shares the one server and resets it between cases: one file at a time
    // keeps them from resetting each other's state.
    fileParallelism: false,
  },
});
