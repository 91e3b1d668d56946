// The dashboard's build: one page, its script and style as hashed files under /__dashboard/assets/,
// nothing inline (the Content-Security-Policy allows only 'self'), nothing fetched from elsewhere.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "/__dashboard/",
  logLevel: "warn",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: fileURLToPath(new URL("../dist/dashboard", import.meta.url)),
    emptyOutDir: true,
    target: "es2022",
    // The polyfill would be an inline script; every browser the dashboard supports has modulepreload.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
});
