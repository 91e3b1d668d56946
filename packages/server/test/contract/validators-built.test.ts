// The server's validators are compiled when the package is built (npm run generate writes them
// to src/generated/validators-*.ts), never when it runs: ajv compiles with `new Function`, which
// Cloudflare Workers refuse, and compiling was most of the CLI's start.
import { AUTH_SCHEMES, document } from "@intake/spec";
import ajvUcs2length from "ajv/dist/runtime/ucs2length.js";
import { afterEach, describe, expect, it } from "vitest";
import { adminValidatorMakers } from "../../src/admin/validators.js";
import { apiValidatorMakers } from "../../src/api/validators.js";
import { builtOperationSchemas } from "../../src/contract/validation.js";
import { checkRecords, recordSchemas, RecordRefused } from "../../src/domain/records-check.js";
import { adminDocument } from "../../src/generated/admin-document.js";
import * as bodies from "../../src/generated/validators-body.js";
import * as parameters from "../../src/generated/validators-parameters.js";
import * as quick from "../../src/generated/validators-records-quick.js";
import * as full from "../../src/generated/validators-records-full.js";
import { HttpError } from "../../src/shared/errors.js";
import { ucs2length } from "../../src/shared/ucs2length.js";
import { importGraph } from "../support/import-graph.js";

/** Every entry point of the package (package.json's exports and its bin). */
const ENTRIES = ["src/index.ts", "src/node.ts", "src/msw.ts", "src/testing.ts", "src/connect.ts", "src/admin-client.ts", "src/cli.ts"];
/** What the server imports, but ajv and ajv-formats (followed into, so a way to ajv through them is found). */
const EXTERNAL = [
  "@intake/spec",
  "msw",
  "@mswjs/data",
  "libphonenumber-js",
  "file-type",
  "leven",
  "yaml",
  "standardwebhooks",
  "openapi-fetch",
  "eventsource-parser",
  "better-sqlite3",
  "selfsigned",
  "openai",
];

describe("no validator is compiled at run time", () => {
  it("no entry point loads ajv (only its types are imported), nor its compiler through ajv-formats' plugin", async () => {
    const ajv = (loaded: string[]) => loaded.filter((path) => path === "ajv" || path === "fast-uri");
    for (const entry of ENTRIES) {
      const loaded = await importGraph(entry, { platform: "node", external: EXTERNAL });
      if (entry !== "src/connect.ts" && entry !== "src/admin-client.ts") expect(loaded, entry).toContain("src/shared/built-validators.ts");
      expect(ajv(loaded), entry).toEqual([]);
    }
    // The generator compiles them, and is seen to load ajv.
    expect(ajv(await importGraph("scripts/validators.ts", { platform: "node", external: EXTERNAL }))).toContain("ajv");
  });

  const realFunction = globalThis.Function;
  afterEach(() => {
    globalThis.Function = realFunction;
  });
  /** Runs `check` while making code from text throws, as in a Worker. */
  function withoutCodeGeneration(check: () => void) {
    globalThis.Function = new Proxy(realFunction, {
      construct: () => {
        throw new EvalError("Code generation from strings disallowed for this context");
      },
      apply: () => {
        throw new EvalError("Code generation from strings disallowed for this context");
      },
    });
    try {
      check();
    } finally {
      globalThis.Function = realFunction;
    }
  }
  /** Runs a validator's check, keeping the 400 it may throw: a 400 is a check that ran. */
  const outcome = (check: () => unknown) => {
    try {
      check();
      return "passed";
    } catch (error) {
      if (error instanceof HttpError) return error.status;
      throw error;
    }
  };

  it("makes every operation's validator of both contracts, and checks with it, without making code", () => {
    withoutCodeGeneration(() => {
      const makers = [
        ...apiValidatorMakers(document, builtOperationSchemas).values(),
        ...adminValidatorMakers(adminDocument, builtOperationSchemas).values(),
      ];
      expect(makers.length).toBeGreaterThan(50);
      for (const make of makers) {
        const validator = make();
        expect(outcome(() => validator.body({ "not a field": "x" }))).toBeOneOf(["passed", 400]);
        expect(outcome(() => validator.query(new URL("https://intake.test/?limit=x&offset=-1")))).toBeOneOf(["passed", 400]);
        expect(outcome(() => validator.path({ accountId: "x", contactId: "", messageId: "%zz" }))).toBeOneOf(["passed", 400]);
        expect(outcome(() => validator.header({ get: () => "x" }))).toBeOneOf(["passed", 400]);
      }
    });
  });

  it("checks records, quickly and then in full, without making code", () => {
    withoutCodeGeneration(() => {
      expect(() => checkRecords({ account: [{ id: "acc_1" }] }, { allowHttpWebhooks: false })).toThrow(RecordRefused);
      expect(() => checkRecords({ account: [] }, { allowHttpWebhooks: false })).not.toThrow();
    });
  });
});

describe("the built validators", () => {
  it("have every key the server looks up, for both contracts in every auth form", () => {
    const asked: string[] = [];
    const recording = (module: typeof bodies) => ({
      get(key: string) {
        asked.push(key);
        expect(module.validators.has(key), key).toBe(true);
        return module.validators.get(key)!;
      },
      release() {},
    });
    const schemas = { bodies: recording(bodies), parameters: recording(parameters) };
    for (const make of [...apiValidatorMakers(document, schemas).values(), ...adminValidatorMakers(adminDocument, schemas).values()])
      make();
    expect(new Set(asked)).toEqual(new Set([...bodies.validators.keys(), ...parameters.validators.keys()]));
    for (const form of Object.keys(AUTH_SCHEMES))
      expect(asked.some((key) => key.startsWith("intake ") && key.includes(` ${form} `))).toBe(true);
    const kinds = Object.keys(recordSchemas(adminDocument));
    expect([...quick.validators.keys()]).toEqual(kinds);
    expect([...full.validators.keys()]).toEqual(kinds);
  });

  it("let go of the errors they keep: release() clears each module's", () => {
    const check = full.validators.get("account")!;
    expect(check({ id: "acc_1" })).toBe(false);
    expect(check.errors?.length).toBeGreaterThan(0);
    full.release();
    expect(check.errors).toBeNull();
  });

  it("say to run npm run generate when the server asks for one that is not there", () => {
    expect(() => builtOperationSchemas.bodies.get("intake noSuchOperation query body", {})).toThrow(
      /validators-body\.ts.*npm run generate/,
    );
  });

  it("count a string's length in code points, as ajv's runtime does", () => {
    const texts = ["", "abc", "😀", "a😀b", "\ud83d", "\ude00", "\ude00\ud83d", "x\ud83d", "é", "👩‍👩‍👧", "\ud83d\ud83d\ude00"];
    const units = [0xd7ff, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xe000, 0x61];
    for (let i = 0; i < 500; i++) {
      texts.push(Array.from({ length: i % 9 }, (_, j) => String.fromCharCode(units[(i * 7 + j * 3) % units.length]!)).join(""));
    }
    // A CommonJS module behind `default`: an import of it is the function or the module, by who loads it.
    const loaded = ajvUcs2length as unknown as ((text: string) => number) | { default: (text: string) => number };
    const ajvCount = typeof loaded === "function" ? loaded : loaded.default;
    for (const text of texts) expect(ucs2length(text), JSON.stringify(text)).toBe(ajvCount(text));
  });
});
