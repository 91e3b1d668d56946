// Jest runs the integration's TypeScript through Babel (jest's documented TypeScript set-up) as
// ES modules, since @intake/server is ESM: run it with `node --experimental-vm-modules`.
export default {
  rootDir: "..",
  testMatch: ["<rootDir>/jest/**/*.test.ts"],
  testEnvironment: "node",
  extensionsToTreatAsEsm: [".ts"],
  transform: {
    "\\.ts$": ["babel-jest", { presets: [["@babel/preset-env", { targets: { node: "current" } }], "@babel/preset-typescript"] }],
  },
  // Sources import "./x.js" (TypeScript's ESM style); the file on disk is x.ts.
  moduleNameMapper: { "^(\\.{1,2}/.*)\\.js$": "$1" },
  // Every test file shares the one server and resets it: one file at a time keeps them from
  // resetting each other's state (jest would otherwise run files in parallel workers).
  maxWorkers: 1,
  globalSetup: "<rootDir>/jest/global-setup.ts",
  globalTeardown: "<rootDir>/jest/global-teardown.ts",
};
