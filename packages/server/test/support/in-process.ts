// Set-up for tests that drive an Intake in-process (its fetch, no server): a contact posted as
// raw JSON, an Intake that rethrows what it reports, and a folder for one test's data file.
import { createIntake, type Intake, type IntakeOptions } from "@intake/server";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished, vi } from "vitest";
import { KEYS, SEED } from "./seed.js";

/** POST /v1/contacts in-process, with the body as given. */
export const post = (intake: Intake, body: string) =>
  intake.fetch(
    new Request(`https://intake.test/v1/contacts?apiKey=${KEYS.acme}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    }),
  );

/** An Intake whose onError keeps each error and throws it again, as tests often do; the console silenced. */
export function rethrowingIntake(options: IntakeOptions = {}) {
  const errors: unknown[] = [];
  const console_ = vi.spyOn(console, "error").mockImplementation(() => {});
  const intake = createIntake({
    ...options,
    seed: SEED,
    onError: (e) => {
      errors.push(e);
      throw e;
    },
  });
  return { intake, errors, console_ };
}

/** A folder for one test's data file and its lock, removed after the test. */
export function lockFolder() {
  const directory = mkdtempSync(join(tmpdir(), "intake-lock-"));
  onTestFinished(() => rmSync(directory, { recursive: true, force: true }));
  const path = join(directory, "state.db");
  return { path, lock: `${path}.lock` };
}
