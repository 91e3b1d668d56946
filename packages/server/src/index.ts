export { createIntake, DEFAULTS, type Intake, type IntakeOptions } from "./app.js";
export type { Seed, Snapshot } from "./domain/state.js";
export { realClock, virtualClock, VIRTUAL_EPOCH, type Clock, type VirtualClock } from "./shared/clock.js";
export type { JournalEntry } from "./live/journal.js";
export type { AnsweredRequest, BotOutcome, DomainEvent, Envelope, EventOf } from "./events/events.js";
export type { EventSource, Listener } from "./events/stream.js";
export * from "./admin-client.js";
export type { FeedEntry, Subscriber } from "./live/feed.js";
export type { FaultRule, FaultRuleInput } from "./faults/faults.js";
export {
  defaultBot,
  handOffByPhrase,
  matchFaq,
  type Bot,
  type BotFailure,
  type BotInfo,
  type BotInput,
  type BotOutput,
} from "./engine/bot.js";
export { WEBHOOK_DEFAULTS, type WebhookOptions } from "./engine/delivery.js";
export { FUNNEL_DEFAULTS, type FunnelOptions } from "./engine/funnel.js";
export type { EngineOptions } from "./engine/index.js";
