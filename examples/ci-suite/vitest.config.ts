import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    // Both files reset the same server state between cases; one file at a time keeps them apart.
    fileParallelism: false,
  },
});
