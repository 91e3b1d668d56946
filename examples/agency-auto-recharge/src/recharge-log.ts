/**
 * Where the receiver remembers each recharge by its idempotency_key, in a JSON file that survives
 * restarts. Every change is written to a temporary file, flushed to disk and renamed over the old
 * one, so a crash leaves the previous state or the new one, never half of each. (A database with
 * a unique key on idempotency_key does the same job in production.)
 */
import { mkdir, open, readFile, rename } from "node:fs/promises";
import { dirname } from "node:path";
import type { AutoRechargeWebhookPayload } from "@intake/client";

export type RechargeState =
  // The webhook is kept so the grant can be made without it arriving again (see resumePending).
  | { step: "charged"; paymentId: string; request: AutoRechargeWebhookPayload; at: string }
  | { step: "granted"; paymentId: string; creditsAdded: number; newBalance: number; at: string }
  | { step: "declined"; reason: string; at: string };

interface FileFormat {
  version: 1;
  recharges: Record<string, RechargeState>;
}

export class RechargeLog {
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly path: string,
    private readonly recharges: Map<string, RechargeState>,
  ) {}

  /** Opens the log at `path`, creating it on first use. A file it cannot read is an error, not an empty log. */
  static async open(path: string): Promise<RechargeLog> {
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      await mkdir(dirname(path), { recursive: true });
      return new RechargeLog(path, new Map());
    }
    let parsed: FileFormat;
    try {
      parsed = JSON.parse(text) as FileFormat;
    } catch (error) {
      throw new Error(
        `${path} is not a recharge log (${(error as Error).message}). Restore it from a backup rather than start empty: an empty log would grant old recharges again.`,
        {
          cause: error,
        },
      );
    }
    if (parsed.version !== 1) throw new Error(`${path} has version ${String(parsed.version)}; this receiver reads version 1.`);
    return new RechargeLog(path, new Map(Object.entries(parsed.recharges)));
  }

  get(idempotencyKey: string): RechargeState | undefined {
    return this.recharges.get(idempotencyKey);
  }

  /** Recharges charged but not yet granted. */
  pending(): Array<[string, Extract<RechargeState, { step: "charged" }>]> {
    return [...this.recharges].filter(
      (entry): entry is [string, Extract<RechargeState, { step: "charged" }>] => entry[1].step === "charged",
    );
  }

  /** Records the state; resolves once it is on disk, and only then does get() return it. */
  async set(idempotencyKey: string, state: RechargeState): Promise<void> {
    // One write at a time, in order: a later state never lands before an earlier one.
    const write = this.writing.then(async () => {
      const next = new Map(this.recharges).set(idempotencyKey, state);
      await writeAtomically(
        this.path,
        `${JSON.stringify({ version: 1, recharges: Object.fromEntries(next) } satisfies FileFormat, null, 2)}\n`,
      );
      this.recharges.set(idempotencyKey, state);
    });
    this.writing = write.catch(() => {});
    await write;
  }
}

async function writeAtomically(path: string, text: string) {
  const temporary = `${path}.${process.pid}.tmp`;
  const file = await open(temporary, "w");
  try {
    await file.writeFile(text);
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(temporary, path);
  // The rename itself is on disk only once the directory is.
  const directory = await open(dirname(path), "r");
  try {
    await directory.sync();
  } finally {
    await directory.close();
  }
}
