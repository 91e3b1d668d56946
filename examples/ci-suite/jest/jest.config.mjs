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
  globalSetup: "<rootDir>/jest/global-setup.ts",
  globalTeardown: "<rootDir>/jest/global-teardown.ts",
};
