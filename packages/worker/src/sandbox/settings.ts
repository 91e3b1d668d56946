/**
 * A sandbox's settings: what the operator asked for when creating it, and what was drawn for it
 * (its admin token, its accounts' keys and secrets, kept in its seed so a reset keeps them).
 */
import type { Seed } from "@intake/server";
import { parse } from "yaml";
import { OperatorError } from "./errors.js";

export interface BotSettings {
  /** The model, as the endpoint names it. */
  model: string;
  /** An OpenAI-compatible endpoint's base URL. Default: OpenAI's. */
  baseUrl?: string;
  /** Its key; kept in the sandbox's storage, never shown again. */
  apiKey?: string | null;
}

export interface SandboxSettings {
  name: string;
  createdAt: string;
  /** The seed its state starts from and a reset goes back to, its keys and secrets drawn for it. */
  seed: Seed;
  /** Whether it was made from the demo (its first conversation is played once, at creation). */
  demo: boolean;
  adminToken: string;
  clock: "real" | "virtual";
  /** Where a virtual clock starts (and a reset rewinds it to). */
  clockStart?: string;
  /** Requests per API key per minute; 0: no limit. */
  rateLimit: number;
  bot?: BotSettings;
}

/** What the operator gives to create a sandbox. */
export interface CreateRequest {
  name?: string;
  /** A seed; with none, `demo` must be true. */
  seed?: unknown;
  demo?: boolean;
  /** Keep the API keys and webhook secrets the seed gives (by default each sandbox draws its own). */
  keepSeedSecrets?: boolean;
  clock?: "real" | "virtual";
  clockStart?: string;
  /** Requests per API key per minute (default 120, the server's); 0 turns the limit off. */
  rateLimit?: number;
  bot?: BotSettings;
}

/** A sandbox's name: its URL's `/s/<name>`. */
export const NAME = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The name a sandbox's path holds (`/s/<name>/...`), whatever it is; undefined for a path outside every sandbox. */
export const nameOf = (pathname: string): string | undefined => /^\/s\/([^/]*)(?:\/|$)/.exec(pathname)?.[1];

export function checkName(name: string): string {
  if (!NAME.test(name))
    throw new OperatorError(
      400,
      "VALIDATION_ERROR",
      `A sandbox's name is 1 to 63 lower-case letters, digits and dashes, not starting or ending with a dash (got ${JSON.stringify(name)}).`,
    );
  return name;
}

/**
 * The create request a POST carries: a JSON object of `CreateRequest`'s fields, or a seed file as
 * YAML (or JSON with `accounts`) with the options in the query (`?name=team-a&clock=virtual`).
 */
export async function createRequestOf(request: Request): Promise<CreateRequest> {
  const url = new URL(request.url);
  const query: CreateRequest = {};
  const name = url.searchParams.get("name");
  if (name !== null) query.name = name;
  const clock = url.searchParams.get("clock");
  if (clock !== null) query.clock = clock as CreateRequest["clock"];
  const clockStart = url.searchParams.get("clockStart");
  if (clockStart !== null) query.clockStart = clockStart;
  const rateLimit = url.searchParams.get("rateLimit");
  if (rateLimit !== null) query.rateLimit = Number(rateLimit);
  if (url.searchParams.has("demo")) query.demo = url.searchParams.get("demo") !== "false";
  if (url.searchParams.has("keepSeedSecrets")) query.keepSeedSecrets = url.searchParams.get("keepSeedSecrets") !== "false";
  const text = await request.text();
  if (!text.trim()) return query;
  const type = request.headers.get("content-type") ?? "";
  let body: unknown;
  try {
    body = /json/.test(type) ? JSON.parse(text) : parse(text);
  } catch (error) {
    throw new OperatorError(400, "INVALID_JSON", `The body is not ${/json/.test(type) ? "JSON" : "YAML"}: ${(error as Error).message}`);
  }
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new OperatorError(400, "VALIDATION_ERROR", "The body must be a create request (an object) or a seed (an object with accounts).");
  // A seed file as it is (its accounts at the top), or a request holding one.
  return "accounts" in body ? { ...query, seed: body } : { ...query, ...checkedRequest(body as Record<string, unknown>) };
}

const FIELDS = ["name", "seed", "demo", "keepSeedSecrets", "clock", "clockStart", "rateLimit", "bot"];

function checkedRequest(body: Record<string, unknown>): CreateRequest {
  const unknown = Object.keys(body).find((key) => !FIELDS.includes(key));
  if (unknown)
    throw new OperatorError(
      400,
      "VALIDATION_ERROR",
      `Unknown field ${unknown}. A create request takes: ${FIELDS.join(", ")} (or send the seed file itself).`,
    );
  return body as CreateRequest;
}

/** The options checked, with what a sandbox starts from: the seed given, or the demo's. */
export function checkRequest(create: CreateRequest): Required<Pick<CreateRequest, "clock">> & CreateRequest {
  if (create.name !== undefined) checkName(create.name);
  const clock = create.clock ?? "real";
  if (clock !== "real" && clock !== "virtual")
    throw new OperatorError(400, "VALIDATION_ERROR", `clock is real or virtual (got ${JSON.stringify(create.clock)}).`);
  if (create.clockStart !== undefined && (clock !== "virtual" || !Number.isFinite(Date.parse(create.clockStart)))) {
    throw new OperatorError(400, "VALIDATION_ERROR", "clockStart is a date-time, for a virtual clock (clock: virtual).");
  }
  if (create.rateLimit !== undefined && !(Number.isInteger(create.rateLimit) && create.rateLimit >= 0 && create.rateLimit <= 100_000)) {
    throw new OperatorError(
      400,
      "VALIDATION_ERROR",
      `rateLimit is a whole number of requests per key per minute, 0 (no limit) to 100000 (got ${JSON.stringify(create.rateLimit)}).`,
    );
  }
  if (create.demo && create.seed !== undefined)
    throw new OperatorError(400, "VALIDATION_ERROR", "Give a seed or ask for the demo, not both.");
  if (!create.demo && create.seed === undefined)
    throw new OperatorError(
      400,
      "VALIDATION_ERROR",
      "Give a seed (the body: a seed file, or { seed }) or ask for the demo (?demo, or { demo: true }).",
    );
  if (create.bot !== undefined) checkBot(create.bot);
  return { ...create, clock };
}

const BOT_FIELDS = ["model", "baseUrl", "apiKey"];

/** `{ model, baseUrl?, apiKey? }`: a model on an OpenAI-compatible endpoint, asked live (record and replay need files, the Node server's). */
function checkBot(bot: unknown): void {
  const refuse = (why: string) =>
    new OperatorError(400, "VALIDATION_ERROR", `bot ${why}. It is { model, baseUrl?, apiKey? }: a model on an OpenAI-compatible endpoint.`);
  if (typeof bot !== "object" || bot === null || Array.isArray(bot)) throw refuse("must be an object");
  const fields = bot as Record<string, unknown>;
  const unknown = Object.keys(fields).find((key) => !BOT_FIELDS.includes(key));
  if (unknown) throw refuse(`has an unknown field ${unknown}`);
  if (typeof fields.model !== "string" || !fields.model.trim()) throw refuse("needs a model (the name the endpoint knows it by)");
  if (fields.baseUrl !== undefined && (typeof fields.baseUrl !== "string" || !/^https?:\/\//.test(fields.baseUrl)))
    throw refuse("baseUrl must be an http(s) URL");
  if (fields.apiKey !== undefined && fields.apiKey !== null && typeof fields.apiKey !== "string") throw refuse("apiKey must be a string");
}
