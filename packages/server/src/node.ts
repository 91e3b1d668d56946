/** Node-only parts: the HTTPS adapter, certificates and the data file. */
export { serve, type RunningServer, type Servable, type ServeOptions } from "./adapters/node.js";
export { defaultCertDir, loadCertificate, type Certificate, type CertificateOptions } from "./adapters/tls.js";
export { openDataFile, SCHEMA_VERSION, TABLES, type DataFile, type Durability } from "./adapters/data-file.js";
export { persist, type Persistence } from "./adapters/write-through.js";
export { claimDataFile, type DataFileClaim } from "./adapters/data-file-lock.js";
export { DEMO_KEYS, DEMO_SEED, DEMO_WEBHOOK_SECRETS } from "./admin/demo-seed.js";
