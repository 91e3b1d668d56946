export { createIntake, DEFAULTS, type Intake, type IntakeOptions } from "./app.js";
export type { AdminService, Seed, Snapshot } from "./admin/service.js";
export { realClock, virtualClock, VIRTUAL_EPOCH, type Clock, type VirtualClock } from "./clock.js";
export type { components as AdminComponents, paths as AdminPaths } from "./generated/admin.js";
export type { JournalEntry } from "./journal.js";
export { defaultBot, matchFaq, type Bot, type BotInput, type BotOutput } from "./engine/bot.js";
export { WEBHOOK_DEFAULTS, type WebhookOptions } from "./engine/delivery.js";
export { FUNNEL_DEFAULTS, type FunnelOptions } from "./engine/funnel.js";
export type { Engine, EngineOptions } from "./engine/index.js";
