/** Node-only parts: the HTTPS adapter, certificates, the data file and the model-backed bot. */
import { persist as persistState, type DataFile, type Persistence } from "./adapters/data-file.js";
import { serve as serveNode, type RunningServer, type ServeOptions } from "./adapters/node.js";
import { recordingFile } from "./adapters/recording-file.js";
import type { Intake } from "./app.js";
import type { Bot } from "./engine/bot.js";
import { internals } from "./internals.js";
import { createModelBot as createBot, type ModelBotOptions } from "./model-bot/model-bot.js";

export type { RunningServer, ServeOptions } from "./adapters/node.js";
export { defaultCertDir, loadCertificate, type Certificate, type CertificateOptions } from "./adapters/tls.js";
export { openDataFile, SCHEMA_VERSION, TABLES, type DataFile, type Durability, type Persistence } from "./adapters/data-file.js";
export { claimDataFile, type DataFileClaim } from "./adapters/data-file-lock.js";
export { DEMO_KEYS, DEMO_SEED, DEMO_WEBHOOK_SECRETS } from "./admin/demo-seed.js";
export { MAX_MESSAGE_CHARS, type ModelBotOptions } from "./model-bot/model-bot.js";
export { MODEL_BOT_DEFAULTS } from "./model-bot/options.js";
export { RECORDING_FORMAT, type RecordingEntry } from "./model-bot/recording.js";

/** The model-backed bot (docs/model-bot.md), its record and replay modes keeping their answers in a file. */
export function createModelBot(options: ModelBotOptions): Bot {
  return createBot(options, recordingFile);
}

/** Serves an Intake over HTTPS (and plain HTTP on loopback) on node:https. */
export async function serve(intake: Intake, options?: ServeOptions): Promise<RunningServer> {
  return serveNode(internals(intake), options);
}

/** Keeps an Intake's state in a data file: each change committed before the answers that confirm it. */
export function persist(intake: Intake, file: DataFile): Persistence {
  return persistState(internals(intake), file);
}
