// The certificate kept beside a data file or in a folder: reused on restart while it still
// serves, replaced (and the reason given) when it no longer does; and the run's own, made in a
// folder of its own when there is neither.
import { X509Certificate } from "node:crypto";
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { createIntake } from "@intake/server";
import { defaultCertDir, loadCertificate, serve } from "@intake/server/node";
import selfsigned from "selfsigned";
import { describe, expect, it } from "vitest";
import { SEED } from "../support/seed.js";

const dataFile = () => join(mkdtempSync(join(tmpdir(), "intake-cert-")), "state.json");

/** A certificate for this machine's names that expires within the hour: one to be replaced. */
function expiringWithinTheHour() {
  return selfsigned.generate([{ name: "commonName", value: "old" }], {
    keyType: "ec",
    curve: "P-256",
    notBeforeDate: new Date(Date.now() - 10 * 24 * 3600 * 1000),
    notAfterDate: new Date(Date.now() + 3600 * 1000),
    extensions: [
      {
        name: "subjectAltName",
        altNames: [
          { type: 2, value: "localhost" },
          { type: 7, ip: "127.0.0.1" },
          { type: 7, ip: "::1" },
        ],
      },
    ],
  });
}

describe("the certificate kept beside a data file", () => {
  it("is generated once and served again on the next start for the same hosts", async () => {
    const file = dataFile();
    const first = await loadCertificate({ dataFile: file, hosts: ["127.0.0.1"] });
    const second = await loadCertificate({ dataFile: file, hosts: ["127.0.0.1"] });
    expect(second.cert).toBe(first.cert);
    expect(second.key).toBe(first.key);
    expect(second.renewed).toBeUndefined();
    expect(second.certPath).toBe(`${file}.cert.pem`);
  });

  it("is replaced when the server is started for a host it does not name, and the new one names it", async () => {
    const file = dataFile();
    const first = await loadCertificate({ dataFile: file, hosts: ["127.0.0.1"] });
    const second = await loadCertificate({ dataFile: file, hosts: ["intake.test", "10.1.2.3"] });
    expect(second.cert).not.toBe(first.cert);
    expect(second.renewed).toBe("it is not for intake.test, 10.1.2.3");
    const served = new X509Certificate(second.cert);
    expect(served.checkHost("intake.test")).toBe("intake.test");
    expect(served.checkIP("10.1.2.3")).toBe("10.1.2.3");
    // Written over the kept pair, so the start after this one reuses it.
    expect(readFileSync(`${file}.cert.pem`, "utf8")).toBe(second.cert);
    expect((await loadCertificate({ dataFile: file, hosts: ["intake.test", "10.1.2.3"] })).renewed).toBeUndefined();
  });

  it("is replaced when it expires within a day", async () => {
    const file = dataFile();
    const old = await expiringWithinTheHour();
    writeFileSync(`${file}.cert.pem`, old.cert);
    writeFileSync(`${file}.key.pem`, old.private);
    const loaded = await loadCertificate({ dataFile: file });
    expect(loaded.renewed).toMatch(/^it expires /);
    expect(loaded.cert).not.toBe(old.cert);
  });

  it("is replaced when its key is not the certificate's, or it cannot be read", async () => {
    const file = dataFile();
    const one = await loadCertificate({ dataFile: file });
    const other = await loadCertificate({ dataFile: dataFile() });
    writeFileSync(`${file}.key.pem`, other.key);
    expect((await loadCertificate({ dataFile: file })).renewed).toBe("its key is not the certificate's");

    writeFileSync(`${file}.cert.pem`, "not a certificate");
    const replaced = await loadCertificate({ dataFile: file });
    expect(replaced.renewed).toMatch(/^it could not be read/);
    expect(replaced.cert).not.toBe(one.cert);
  });
});

// A folder of the test's own stands for the user's cache folder: tests never touch the real home.
const certDir = () => join(mkdtempSync(join(tmpdir(), "intake-certdir-")), "intake-server");
const unix = process.platform !== "win32";

describe("the certificate kept in a folder (the CLI's: the user's cache folder)", () => {
  it("is generated once per set of hosts and served again from the same path, its files the user's alone", async () => {
    const folder = certDir();
    const first = await loadCertificate({ certDir: folder, hosts: ["127.0.0.1"] });
    expect(first).toMatchObject({ certPath: join(folder, "localhost.cert.pem"), temporary: false });
    expect(first.renewed).toBeUndefined();
    const again = await loadCertificate({ certDir: folder, hosts: ["127.0.0.1", "localhost"] });
    expect(again.certPath).toBe(first.certPath);
    expect(again.cert).toBe(first.cert);
    expect(readFileSync(first.certPath, "utf8")).toBe(first.cert);
    if (unix) {
      expect(statSync(folder).mode & 0o777).toBe(0o700);
      for (const file of readdirSync(folder)) expect(statSync(join(folder, file)).mode & 0o777).toBe(0o600);
    }

    // Another set of hosts gets a pair of its own, beside the first, which stays as it was.
    const other = await loadCertificate({ certDir: folder, hosts: ["intake.test"] });
    expect(other.certPath).not.toBe(first.certPath);
    expect(new X509Certificate(other.cert).checkHost("intake.test")).toBe("intake.test");
    expect((await loadCertificate({ certDir: folder, hosts: ["intake.test"] })).cert).toBe(other.cert);
    expect((await loadCertificate({ certDir: folder })).cert).toBe(first.cert);
    expect(readdirSync(folder).sort()).toEqual(
      [...new Set([basename(first.certPath), basename(other.certPath)].flatMap((c) => [c, c.replace(".cert.", ".key.")]))].sort(),
    );
  });

  it("is replaced in place when it expires within a day, saying why", async () => {
    const folder = certDir();
    const first = await loadCertificate({ certDir: folder });
    const old = await expiringWithinTheHour();
    writeFileSync(first.certPath, old.cert);
    writeFileSync(first.certPath.replace(".cert.", ".key."), old.private);
    const renewed = await loadCertificate({ certDir: folder });
    expect(renewed.certPath).toBe(first.certPath);
    expect(renewed.renewed).toMatch(/^it expires /);
    expect(readFileSync(renewed.certPath, "utf8")).toBe(renewed.cert);
    expect(renewed.cert).not.toBe(old.cert);
  });

  it("servers starting together all serve the pair the folder ends up holding", async () => {
    const folder = certDir();
    const all = await Promise.all(Array.from({ length: 4 }, () => loadCertificate({ certDir: folder })));
    const onDisk = readFileSync(all[0]!.certPath, "utf8");
    for (const one of all) expect(one.cert).toBe(onDisk);
    expect(readdirSync(folder).sort()).toEqual(["localhost.cert.pem", "localhost.key.pem"]);
  });

  it.runIf(unix)("closes a folder of the user's that others may enter, and refuses a link", async () => {
    const open = certDir();
    mkdirSync(open, { mode: 0o755 });
    chmodSync(open, 0o755);
    await loadCertificate({ certDir: open });
    expect(statSync(open).mode & 0o777).toBe(0o700);

    const link = certDir();
    symlinkSync(mkdtempSync(join(tmpdir(), "intake-elsewhere-")), link);
    await expect(loadCertificate({ certDir: link })).rejects.toThrow(`The certificate folder ${link} is not a folder (a link or a file)`);
  });
});

describe("the lock on the certificate's folder", () => {
  it("left behind by a start that died is taken over once stale, and gone after", async () => {
    const folder = certDir();
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const lock = join(folder, "localhost.cert.pem.lock");
    writeFileSync(lock, "");
    const stale = new Date(Date.now() - 20_000);
    utimesSync(lock, stale, stale);
    const loaded = await loadCertificate({ certDir: folder });
    expect(loaded.certPath).toBe(join(folder, "localhost.cert.pem"));
    expect(readdirSync(folder)).not.toContain("localhost.cert.pem.lock");
  });
});

describe("defaultCertDir", () => {
  it("is INTAKE_CERT_DIR when set, else intake-server in the user's cache folder", () => {
    expect(defaultCertDir({ INTAKE_CERT_DIR: "/srv/certs", XDG_CACHE_HOME: "/cache" })).toBe("/srv/certs");
    if (!unix) return;
    expect(defaultCertDir({ XDG_CACHE_HOME: "/cache" })).toBe("/cache/intake-server");
    // The XDG spec ignores a relative value.
    expect(defaultCertDir({ XDG_CACHE_HOME: "cache" })).toBe(join(homedir(), ".cache", "intake-server"));
    expect(defaultCertDir({})).toBe(join(homedir(), ".cache", "intake-server"));
  });
});

describe("the node adapter's generated certificate, without a folder to keep it in", () => {
  it("is this run's own, in a folder of its own closed to others, removed when the server stops or cannot listen", async () => {
    // A temporary folder of this test's alone, so the folders counted are this test's servers'.
    const temporary = mkdtempSync(join(tmpdir(), "intake-tmpdir-"));
    const before = process.env.TMPDIR;
    process.env.TMPDIR = temporary;
    try {
      const first = await serve(createIntake({ seed: SEED }), { port: 0 });
      const folder = dirname(first.certificatePath);
      try {
        expect(dirname(folder)).toBe(temporary);
        if (process.platform !== "win32") expect(statSync(folder).mode & 0o777).toBe(0o700);
        await expect(serve(createIntake({ seed: SEED }), { port: first.port, host: "127.0.0.1" })).rejects.toThrow(
          `Port ${first.port} on 127.0.0.1 is in use`,
        );
        expect(readdirSync(temporary)).toEqual([basename(folder)]);
      } finally {
        await first.close();
      }
      expect(readdirSync(temporary)).toEqual([]);
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
      rmSync(temporary, { recursive: true, force: true });
    }
  });
});
