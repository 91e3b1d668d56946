/**
 * Which account a request belongs to. The key may come in three places; an operation accepts
 * only some of them (the contract's security list). A key in a place the operation does not
 * accept is refused with a message naming the place it does.
 */
import type { AuthForm } from "@intake/spec";
import type { AccountRecord } from "../store/models.js";
import type { Store } from "../store/store.js";
import { HttpError } from "../shared/errors.js";
import type { ApiRequest } from "./exchange.js";
import type { Step } from "./pipeline.js";
import type { Route } from "./routes.js";

interface Authenticated {
  form: AuthForm;
  key: string;
  account: AccountRecord;
}

/** The request's account, from its API key in a form the route accepts. */
export function apiKey(store: Store): Step {
  return (context, next) => {
    const { form, key, account } = authenticate(context.request, context.url, context.route!, store);
    context.auth = { form, key };
    context.account = account;
    return next();
  };
}

/**
 * The request's account in the state as it is now. A request that waited for its body may have
 * outlived its key (replaced) or the state it was checked against (a reset, a snapshot restored):
 * it is applied whole to the state it finds, or refused as a request sent with that key now is
 * (no account, no rate-limit headers).
 */
export function currentAccount(store: Store): Step {
  return (context, next) => {
    if (context.bodyText === undefined) return next();
    const account = store.accountByApiKey(context.auth!.key);
    if (!account) {
      for (const name of Object.keys(context.headers)) if (name.startsWith("ratelimit-")) delete context.headers[name];
      context.account = undefined;
      invalidKey();
    }
    context.account = account;
    return next();
  };
}

const DESCRIBE: Record<AuthForm, string> = {
  query: "the query parameter ?apiKey=<API_KEY>",
  header: "the header x-api-key: <API_KEY>",
  bearer: "the header Authorization: Bearer <API_KEY>",
};

/** Every place the request carries a key in. */
function presentedKeys(request: ApiRequest, url: URL): Array<{ form: AuthForm; key: string }> {
  const found: Array<{ form: AuthForm; key: string }> = [];
  const query = url.searchParams.getAll("apiKey");
  if (query.length > 1) throw new HttpError(401, "INVALID_API_KEY", "apiKey is given more than once in the query; send it once.");
  if (query.length === 1) found.push({ form: "query", key: query[0]!.trim() });
  const header = request.headers.get("x-api-key");
  if (header !== null) found.push({ form: "header", key: header.trim() });
  const authorization = request.headers.get("authorization");
  if (authorization !== null) {
    const bearer = /^Bearer\s+(.*)$/i.exec(authorization.trim());
    if (!bearer) {
      throw new HttpError(401, "INVALID_API_KEY", "The Authorization header must be 'Bearer <API_KEY>'.");
    }
    found.push({ form: "bearer", key: bearer[1]!.trim() });
  }
  return found;
}

function authenticate(request: ApiRequest, url: URL, route: Route, store: Store): Authenticated {
  const presented = presentedKeys(request, url);
  // Only an error names them; a request that authenticates pays for none of this text.
  const where = () => `${route.method} ${route.template}`;
  const accepted = () => route.forms.map((form) => DESCRIBE[form]).join(" or ");
  if (presented.length === 0) {
    throw new HttpError(401, "MISSING_API_KEY", `Missing API key: ${where()} takes it as ${accepted()}.`);
  }
  const wrong = presented.find((p) => !route.forms.includes(p.form));
  if (wrong) {
    throw new HttpError(
      401,
      "WRONG_AUTH_FORM",
      `${where()} takes the API key as ${accepted()}, not as ${DESCRIBE[wrong.form]}.` +
        (wrong.form === "query" ? " Remove apiKey from the query." : ""),
    );
  }
  if (presented.length > 1) {
    throw new HttpError(401, "WRONG_AUTH_FORM", `Send the API key in one place only; this request has it as ${presented.map((p) => DESCRIBE[p.form]).join(" and ")}.`);
  }
  const { form, key } = presented[0]!;
  const account = key ? store.accountByApiKey(key) : undefined;
  if (!account) throw invalidKey();
  return { form, key, account };
}

function invalidKey(): never {
  throw new HttpError(
    401,
    "INVALID_API_KEY",
    "Invalid API key. It may have been replaced by a newer one: generate a key in Settings > Account > API Key (on the reference server: POST /__admin/accounts/{id}/api-key, or /__dashboard/settings).",
  );
}
