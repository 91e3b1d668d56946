import { HttpError } from "../../shared/errors.js";
import type { Step } from "../compose.js";

/**
 * A request the adapter could not hand over as sent (headers over its limit, bytes that are not
 * HTTP, a target that is not a path) is answered with the adapter's reason, in the shape of the
 * route its path names.
 */
export const refuseForAdapter: Step = function refuseForAdapter(context, next) {
  const { refusal } = context.request;
  if (refusal) throw new HttpError(refusal.status ?? 400, refusal.code, refusal.message);
  return next(context);
};
