/** Node-only parts: the HTTPS adapter, certificates, the data file and the model-backed bot. */
export { serve, type RunningServer, type Servable, type ServeOptions } from "./adapters/node.js";
export { defaultCertDir, loadCertificate, type Certificate, type CertificateOptions } from "./adapters/tls.js";
export { openDataFile, SCHEMA_VERSION, TABLES, type DataFile, type Durability } from "./adapters/data-file.js";
export { persist, type Persistence } from "./adapters/write-through.js";
export { claimDataFile, type DataFileClaim } from "./adapters/data-file-lock.js";
export { DEMO_KEYS, DEMO_SEED, DEMO_WEBHOOK_SECRETS } from "./admin/demo-seed.js";
export { createModelBot, MAX_MESSAGE_CHARS, type ModelBotOptions } from "./model-bot/model-bot.js";
export { MODEL_BOT_DEFAULTS } from "./model-bot/options.js";
export { RECORDING_FORMAT, type RecordingEntry } from "./model-bot/recording.js";
