// The certificate kept beside a data file: reused on restart while it still serves, replaced
// (and the reason given) when it no longer does.
import { X509Certificate } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadCertificate } from "@intake/server/node";
import selfsigned from "selfsigned";
import { describe, expect, it } from "vitest";

const dataFile = () => join(mkdtempSync(join(tmpdir(), "intake-cert-")), "state.json");

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
    const notBeforeDate = new Date(Date.now() - 10 * 24 * 3600 * 1000);
    const old = await selfsigned.generate([{ name: "commonName", value: "old" }], {
      keyType: "ec",
      curve: "P-256",
      notBeforeDate,
      notAfterDate: new Date(Date.now() + 3600 * 1000),
      extensions: [{ name: "subjectAltName", altNames: [{ type: 2, value: "localhost" }, { type: 7, ip: "127.0.0.1" }, { type: 7, ip: "::1" }] }],
    });
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
