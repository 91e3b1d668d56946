/**
 * /v1's API key: who a request acts for. The key may come in three places; an operation accepts
 * only some of them (the contract's security list), and a key in a place it does not accept is
 * refused with a message naming the place it does.
 */
import type { AuthForm } from "@intake/spec";
import type { ApiRequest } from "../../contract/exchange.js";
import { HttpError } from "../../shared/errors.js";
import type { StoreReader } from "../../store/store.js";
import type { Step } from "../compose.js";
import { add, type ApiKey, type Authenticated, type Route, type Routed } from "../context.js";

/** The account whose API key this is, if any (confirmAccount looks again). */
export const accountOf = (store: StoreReader, key: string) => (key ? store.account.find("apiKey", "", key) : undefined);

/** The request's account, from its API key in a form the route accepts. */
export function authenticate(store: StoreReader): Step<Routed, Authenticated> {
  return function authenticate(context, next) {
    const auth = presentedKey(context.request, context.url, context.route);
    const account = accountOf(store, auth.key) ?? invalidKey();
    return next(add(add(context, "auth", auth), "account", account));
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
  for (const key of query) found.push({ form: "query", key: key.trim() });
  const header = request.headers.get("x-api-key");
  if (header !== null) found.push({ form: "header", key: header.trim() });
  const authorization = request.headers.get("authorization");
  if (authorization !== null) {
    const bearer = /^Bearer\s+(.*)$/i.exec(authorization.trim());
    if (!bearer) {
      throw new HttpError(401, "INVALID_API_KEY", "The Authorization header must be 'Bearer <API_KEY>'.");
    }
    found.push({ form: "bearer", key: (bearer[1] ?? "").trim() });
  }
  return found;
}

/** The one key the request carries, in a form its route accepts. */
function presentedKey(request: ApiRequest, url: URL, route: Route): ApiKey {
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
    throw new HttpError(
      401,
      "WRONG_AUTH_FORM",
      `Send the API key in one place only; this request has it as ${presented.map((p) => DESCRIBE[p.form]).join(" and ")}.`,
    );
  }
  return presented[0] as ApiKey;
}

export function invalidKey(): never {
  throw new HttpError(
    401,
    "INVALID_API_KEY",
    "Invalid API key. It may have been replaced by a newer one: generate a key in Settings > Account > API Key (on the reference server: POST /__admin/accounts/{id}/api-key, or /__dashboard/settings).",
  );
}
