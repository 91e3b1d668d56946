/**
 * The certificate the node adapter serves: one supplied (--tls-cert/--tls-key), one kept from an
 * earlier run (beside a data file, or in a folder such as the user's cache), or a new one
 * generated with selfsigned. Its PEM is written to
 * a file so clients can trust it (NODE_EXTRA_CA_CERTS, curl --cacert, a custom fetch).
 */
import { X509Certificate, createHash, createPrivateKey } from "node:crypto";
import { chmod, lstat, mkdir, mkdtemp, open, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { isIP } from "node:net";
import { homedir, tmpdir } from "node:os";
import { dirname, isAbsolute, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

export interface Certificate {
  cert: string;
  key: string;
  /** Where the certificate's PEM is, for clients to trust. */
  certPath: string;
  /** Written by this run (and removed when it closes). */
  temporary: boolean;
  /** A folder made for this run alone, removed with the certificate. */
  temporaryFolder?: string;
  /** Why a certificate kept from an earlier run was replaced by a new one, when it was. */
  renewed?: string;
}

export interface CertificateOptions {
  certFile?: string | undefined;
  keyFile?: string | undefined;
  /** Keep the generated pair at `<dataFile>.cert.pem` / `.key.pem`, so a restart serves the same one. */
  dataFile?: string | undefined;
  /**
   * Keep the generated pair in this folder (one pair per set of hosts), so a restart serves the
   * same one and `NODE_EXTRA_CA_CERTS` set once keeps working. The CLI passes `defaultCertDir()`.
   * Without it (and without `dataFile`), the certificate is this run's alone, removed at close.
   */
  certDir?: string | undefined;
  /** Names and addresses the certificate is for, besides localhost, 127.0.0.1 and ::1. */
  hosts?: string[] | undefined;
}

/**
 * Where the CLI keeps generated certificates: `$INTAKE_CERT_DIR`, else the user's cache folder
 * (`$XDG_CACHE_HOME/intake-server`, `~/.cache/intake-server`, `%LOCALAPPDATA%\intake-server`).
 */
export function defaultCertDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.INTAKE_CERT_DIR) return env.INTAKE_CERT_DIR;
  if (process.platform === "win32") return join(env.LOCALAPPDATA || join(homedir(), "AppData", "Local"), "intake-server");
  // The XDG spec ignores a relative value.
  const cache = env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : join(homedir(), ".cache");
  return join(cache, "intake-server");
}

/** What is wrong with a certificate pair given in part (one file without the other); undefined when it is not. */
export function halfPair(certFile: string | undefined, keyFile: string | undefined): string | undefined {
  return !certFile !== !keyFile ? "--tls-cert and --tls-key go together: give both files." : undefined;
}

export async function loadCertificate(options: CertificateOptions): Promise<Certificate> {
  const half = halfPair(options.certFile, options.keyFile);
  if (half) throw new Error(half);
  if (options.certFile && options.keyFile) {
    return {
      cert: await readFile(options.certFile, "utf8"),
      key: await readFile(options.keyFile, "utf8"),
      certPath: options.certFile,
      temporary: false,
    };
  }
  const names = certificateNames(options.hosts ?? []);
  if (options.dataFile) return kept(`${options.dataFile}.cert.pem`, `${options.dataFile}.key.pem`, names);
  if (options.certDir) {
    await ownFolder(options.certDir);
    const label = pairLabel(names);
    return kept(join(options.certDir, `${label}.cert.pem`), join(options.certDir, `${label}.key.pem`), names);
  }
  const pair = await generate(names);
  const dir = await mkdtemp(join(tmpdir(), "intake-server-"));
  const certPath = join(dir, "cert.pem");
  await writeFile(certPath, pair.cert, { mode: 0o600 });
  return { ...pair, certPath, temporary: true, temporaryFolder: dir };
}

/**
 * The pair kept at these paths when it still serves these names, else a new one written there
 * (and why the old one was replaced).
 */
async function kept(certPath: string, keyPath: string, names: string[]): Promise<Certificate> {
  const found = await readPair(certPath, keyPath);
  const renewed = found ? unfit(found, names) : undefined;
  if (found && !renewed) return { ...found, certPath, temporary: false };
  await mkdir(dirname(certPath), { recursive: true, mode: 0o700 });
  // One writer at a time: servers started together would otherwise each serve a pair of their
  // own while the files hold only the last one written.
  return await locked(`${certPath}.lock`, async () => {
    const meanwhile = await readPair(certPath, keyPath);
    if (meanwhile && !unfit(meanwhile, names)) return { ...meanwhile, certPath, temporary: false, ...(renewed ? { renewed } : {}) };
    const pair = await generate(names);
    // Each file whole or not at all, for a reader that does not take the lock.
    await writeWhole(keyPath, pair.key);
    await writeWhole(certPath, pair.cert);
    return { ...pair, certPath, temporary: false, ...(renewed ? { renewed } : {}) };
  });
}

/** Runs `work` holding a lock file; one left by a run that died while holding it is taken over after a while. */
async function locked<T>(lockPath: string, work: () => Promise<T>): Promise<T> {
  for (const started = Date.now(); ;) {
    try {
      await (await open(lockPath, "wx", 0o600)).close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const held = await stat(lockPath).catch(() => undefined);
      // Making a pair takes well under a second; a lock this old was left behind.
      if (held && Date.now() - held.mtimeMs > STALE_LOCK_MS) await rm(lockPath, { force: true });
      else if (Date.now() - started > 2 * STALE_LOCK_MS)
        throw new Error(`${lockPath} is held: another intake-server is writing its certificate. Try again, or remove the file.`, {
          cause: error,
        });
      await sleep(25);
    }
  }
  try {
    return await work();
  } finally {
    await rm(lockPath, { force: true });
  }
}

const STALE_LOCK_MS = 15_000;

async function readPair(certPath: string, keyPath: string): Promise<{ cert: string; key: string } | undefined> {
  try {
    return { cert: await readFile(certPath, "utf8"), key: await readFile(keyPath, "utf8") };
  } catch {
    return undefined;
  }
}

async function writeWhole(path: string, text: string) {
  const temporary = `${path}.${process.pid}-${Math.random().toString(36).slice(2, 8)}.tmp`;
  try {
    await writeFile(temporary, text, { mode: 0o600 });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/**
 * Makes the folder (0700) or checks the one there. Clients trust what is written in it, so it
 * must be this user's and closed to others: one made by someone else, or a link, is refused; one
 * of this user's that others may enter is closed (0700).
 */
async function ownFolder(dir: string) {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const found = await lstat(dir);
  if (!found.isDirectory())
    throw new Error(
      `The certificate folder ${dir} is not a folder (a link or a file): remove it, or choose another with --cert-dir or INTAKE_CERT_DIR.`,
    );
  if (typeof process.getuid !== "function") return;
  if (found.uid !== process.getuid()) {
    throw new Error(
      `The certificate folder ${dir} belongs to another user, who could replace the certificate clients trust: choose another with --cert-dir or INTAKE_CERT_DIR.`,
    );
  }
  if ((found.mode & 0o077) !== 0) await chmod(dir, 0o700);
}

/** A file name per set of names: `localhost` for the loopback ones alone, else a digest of the set. */
function pairLabel(names: string[]): string {
  const extra = names.filter((name) => !LOOPBACK.includes(name));
  if (!extra.length) return "localhost";
  return `hosts-${createHash("sha256")
    .update([...names].sort().join("\n"))
    .digest("hex")
    .slice(0, 12)}`;
}

const LOOPBACK = ["localhost", "127.0.0.1", "::1"];

/** The names and addresses a generated certificate is for: the loopback ones and the hosts served on. */
function certificateNames(hosts: string[]): string[] {
  return [...new Set([...LOOPBACK, ...hosts.filter((h) => h && h !== "0.0.0.0" && h !== "::")])];
}

const DAY = 24 * 3600 * 1000;

/**
 * Why a kept pair cannot be served again, or undefined when it can: it must parse, the key must
 * be the certificate's, it must not expire within a day, and it must name every host served on
 * (a restart with another --host would otherwise serve a certificate clients refuse).
 */
function unfit(pair: { cert: string; key: string }, names: string[], now = Date.now()): string | undefined {
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(pair.cert);
    if (!certificate.checkPrivateKey(createPrivateKey(pair.key))) return "its key is not the certificate's";
  } catch (error) {
    return `it could not be read (${(error as Error).message})`;
  }
  if (Date.parse(certificate.validTo) - now < DAY) return `it expires ${certificate.validTo}`;
  const missing = names.filter((name) => (isIP(name) ? certificate.checkIP(name) : certificate.checkHost(name)) === undefined);
  return missing.length ? `it is not for ${missing.join(", ")}` : undefined;
}

async function generate(names: string[]): Promise<{ cert: string; key: string }> {
  const altNames = names.map((name) => (isIP(name) ? { type: 7 as const, ip: name } : { type: 2 as const, value: name }));
  const notBeforeDate = new Date(Date.now() - 60_000);
  // Loaded only to make one (a seventh of a start here): a kept certificate, or one given, needs none of it.
  const { default: selfsigned } = await import("selfsigned");
  const pems = await selfsigned.generate([{ name: "commonName", value: "Intake reference server" }], {
    keyType: "ec",
    curve: "P-256",
    algorithm: "sha256",
    notBeforeDate,
    notAfterDate: new Date(notBeforeDate.getTime() + 825 * 24 * 3600 * 1000),
    extensions: [
      { name: "basicConstraints", cA: false },
      { name: "keyUsage", digitalSignature: true, keyEncipherment: true },
      { name: "extKeyUsage", serverAuth: true },
      { name: "subjectAltName", altNames },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}
