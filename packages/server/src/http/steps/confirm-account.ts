import type { StoreReader } from "../../store/store.js";
import type { Step } from "../compose.js";
import { add, type Authenticated, type Context } from "../context.js";
import { accountOf, invalidKey } from "./authenticate.js";

/**
 * The request's account in the state as it is now. A request that waited for its body may have
 * outlived its key (replaced) or the state it was checked against (a reset, a snapshot restored):
 * it is applied whole to the state it finds, or refused as a request sent with that key now is
 * (no account, no rate-limit headers).
 */
export function confirmAccount(store: StoreReader): Step<Authenticated> {
  return function confirmAccount(context, next) {
    if (context.bodyText === undefined) return next(context);
    const account = accountOf(store, context.auth.key);
    if (!account) {
      for (const name of Object.keys(context.headers)) if (name.startsWith("ratelimit-")) delete context.headers[name];
      // Journaled as a request with that key now is: with no account.
      const journaled: Context = context;
      delete journaled.account;
      invalidKey();
    }
    return next(add(context, "account", account));
  };
}
