/** The service as msw request handlers (see adapters/msw.ts). */
export { createIntakeHandlers, DEFAULT_ORIGIN, type IntakeHandlers, type IntakeHandlersOptions } from "./adapters/msw.js";
