/**
 * The certificate the node adapter serves: one supplied (--tls-cert/--tls-key), one kept beside
 * a data file from an earlier run, or a new one generated with selfsigned. Its PEM is written to
 * a file so clients can trust it (NODE_EXTRA_CA_CERTS, curl --cacert, a custom fetch).
 */
import { X509Certificate, createPrivateKey } from "node:crypto";
import { existsSync } from "node:fs";
import { lstat, mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { isIP } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

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
  certFile?: string;
  keyFile?: string;
  /** Keep the generated pair at `<dataFile>.cert.pem` / `.key.pem`, so a restart serves the same one. */
  dataFile?: string;
  /** Names and addresses the certificate is for, besides localhost, 127.0.0.1 and ::1. */
  hosts?: string[];
}

/** What is wrong with a certificate pair given in part (one file without the other); undefined when it is not. */
export function halfPair(certFile: string | undefined, keyFile: string | undefined): string | undefined {
  return !certFile !== !keyFile ? "--tls-cert and --tls-key go together: give both files." : undefined;
}

export async function loadCertificate(options: CertificateOptions): Promise<Certificate> {
  const half = halfPair(options.certFile, options.keyFile);
  if (half) throw new Error(half);
  if (options.certFile && options.keyFile) {
    return { cert: await readFile(options.certFile, "utf8"), key: await readFile(options.keyFile, "utf8"), certPath: options.certFile, temporary: false };
  }
  if (options.dataFile) {
    const certPath = `${options.dataFile}.cert.pem`;
    const keyPath = `${options.dataFile}.key.pem`;
    let renewed: string | undefined;
    if (existsSync(certPath) && existsSync(keyPath)) {
      const kept = { cert: await readFile(certPath, "utf8"), key: await readFile(keyPath, "utf8") };
      renewed = unfit(kept, certificateNames(options.hosts ?? []));
      if (!renewed) return { ...kept, certPath, temporary: false };
    }
    const pair = await generate(options.hosts ?? []);
    await mkdir(dirname(certPath), { recursive: true });
    await writeFile(keyPath, pair.key, { mode: 0o600 });
    await writeFile(certPath, pair.cert);
    return { ...pair, certPath, temporary: false, ...(renewed ? { renewed } : {}) };
  }
  const pair = await generate(options.hosts ?? []);
  const { dir, own } = await certificateFolder();
  const certPath = join(dir, `cert-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}.pem`);
  await writeFile(certPath, pair.cert);
  return { ...pair, certPath, temporary: true, ...(own ? { temporaryFolder: dir } : {}) };
}

/**
 * Where generated certificates go: one folder per user, kept between runs. Clients trust the file
 * written there, so the folder must be this user's alone; one that is not (made first by someone
 * else, a link, open to others) is passed over for a new folder of this run's own.
 */
async function certificateFolder(): Promise<{ dir: string; own: boolean }> {
  if (typeof process.getuid === "function") {
    const dir = join(tmpdir(), `intake-server-${process.getuid()}`);
    await mkdir(dir, { recursive: true, mode: 0o700 }).catch(() => {});
    const found = await lstat(dir).catch(() => undefined);
    if (found?.isDirectory() && found.uid === process.getuid() && (found.mode & 0o077) === 0) return { dir, own: false };
  }
  return { dir: await mkdtemp(join(tmpdir(), "intake-server-")), own: true };
}

/** The names and addresses a generated certificate is for: the loopback ones and the hosts served on. */
function certificateNames(hosts: string[]): string[] {
  return [...new Set(["localhost", "127.0.0.1", "::1", ...hosts.filter((h) => h && h !== "0.0.0.0" && h !== "::")])];
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

async function generate(hosts: string[]): Promise<{ cert: string; key: string }> {
  const altNames = certificateNames(hosts).map((name) => (isIP(name) ? { type: 7 as const, ip: name } : { type: 2 as const, value: name }));
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
