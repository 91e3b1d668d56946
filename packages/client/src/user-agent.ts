/**
 * The User-Agent the client sends: the SDK, its version and the runtime, so a service's logs can
 * tell which SDK version made a request. Browsers are left alone: there the header is the
 * browser's own (Chromium ignores a page's, and setting one would cost a CORS preflight).
 */
/** Replaced by the build (tsup.config.ts) with package.json's version; absent when run from source. */
declare const __INTAKE_CLIENT_VERSION__: string | undefined;

export const VERSION: string = typeof __INTAKE_CLIENT_VERSION__ === "string" ? __INTAKE_CLIENT_VERSION__ : "source";

/** `intake-client/<version> <runtime>/<version>`, or undefined in a browser. */
export function userAgent(): string | undefined {
  const scope = globalThis as {
    document?: unknown;
    Deno?: { version?: { deno?: string } };
    Bun?: { version?: string };
    process?: { versions?: { node?: string } };
    navigator?: { userAgent?: string };
  };
  if (scope.document !== undefined) return undefined;
  const runtime = scope.Deno?.version?.deno
    ? `deno/${scope.Deno.version.deno}`
    : scope.Bun?.version
      ? `bun/${scope.Bun.version}`
      : scope.navigator?.userAgent === "Cloudflare-Workers"
        ? "workerd"
        : scope.process?.versions?.node
          ? `node/${scope.process.versions.node}`
          : undefined;
  return `intake-client/${VERSION}${runtime ? ` ${runtime}` : ""}`;
}
