export { createIntakeClient, type IntakeClient } from "./client.js";
export type { IntakeClientOptions, RetryOptions, FetchFn } from "./options.js";
export type { CallOptions, ContactsResource, ListsResource, MessagesResource, SubaccountsResource, WithRequestId } from "./resources.js";
export type { LogEntry } from "./log.js";
export type { PathsByForm } from "./types.js";
export {
  IntakeError,
  IntakeConfigError,
  IntakeApiError,
  BadRequestError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  MethodNotAllowedError,
  RateLimitError,
  ServerError,
  ConnectionError,
  TimeoutError,
  AbortError,
  type IntakeErrorCode,
  type RequestSummary,
} from "./errors.js";
export type { AuthForm, Contact, ErrorCode, ReplyWebhookPayload, AutoRechargeWebhookPayload } from "@intake/spec";
