export { createIntake, DEFAULTS, type Intake, type IntakeOptions } from "./app.js";
export type { AdminService, Seed, Snapshot } from "./admin/service.js";
export { realClock, virtualClock, VIRTUAL_EPOCH, type Clock, type VirtualClock } from "./clock.js";
export type { components as AdminComponents, paths as AdminPaths } from "./generated/admin.js";
export type { JournalEntry } from "./journal.js";
