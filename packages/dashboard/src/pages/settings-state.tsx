/**
 * Settings > Server state: the whole state (every account) exported as a snapshot file, a file
 * imported in its place, or a reset to the seed the server started with. Import and reset ask first.
 */
import { useState } from "preact/hooks";
import { admin, type Schemas } from "../api/admin.js";
import { Confirm } from "../ui/confirm.js";
import { useAction } from "../ui/load.js";
import { ErrorNote, Note } from "../ui/page.js";

type Snapshot = Schemas["Snapshot"];
const FORMAT = "intake-snapshot/1";

/** Hands the browser a file to save. */
function saveFile(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const link = Object.assign(document.createElement("a"), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its copy once the click is handled.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** The snapshot a chosen file holds, or an error saying what the file is instead. */
async function readSnapshot(file: File): Promise<Snapshot> {
  const again = "Choose a file saved by Export.";
  let value: unknown;
  try {
    value = JSON.parse(await file.text());
  } catch (error) {
    throw new Error(`${file.name} is not JSON (${(error as Error).message}). ${again}`, { cause: error });
  }
  const format = typeof value === "object" && value !== null ? (value as { format?: unknown }).format : undefined;
  if (format !== FORMAT)
    throw new Error(
      `${file.name} is not an Intake snapshot: its format is ${format === undefined ? "missing" : JSON.stringify(format)}, not ${FORMAT}. ${again}`,
    );
  return value as Snapshot;
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;
const tally = (snapshot: Snapshot) =>
  `${count(snapshot.records.account?.length ?? 0, "account")}, ${count(snapshot.records.contact?.length ?? 0, "contact")}, ${count(snapshot.records.message?.length ?? 0, "message")}`;

export function ServerState() {
  const exporting = useAction();
  const importing = useAction();
  const resetting = useAction();
  const [chosen, setChosen] = useState<{ name: string; snapshot: Snapshot } | undefined>();
  const [fileError, setFileError] = useState<Error | undefined>();
  const [done, setDone] = useState<string | undefined>();

  const exportState = () =>
    exporting.run(async () => {
      const snapshot = await admin().snapshot();
      saveFile(`intake-snapshot-${snapshot.savedAt.replace(/[:.]/g, "-")}.json`, JSON.stringify(snapshot, null, 2));
      setDone(`Exported: ${tally(snapshot)}.`);
    });

  const choose = async (event: Event) => {
    const input = event.currentTarget as HTMLInputElement;
    const file = input.files?.[0];
    setChosen(undefined);
    setFileError(undefined);
    setDone(undefined);
    if (!file) return;
    try {
      setChosen({ name: file.name, snapshot: await readSnapshot(file) });
    } catch (error) {
      setFileError(error as Error);
    }
    input.value = "";
  };

  return (
    <section class="card" aria-labelledby="state-title">
      <h2 id="state-title">Server state (every account)</h2>
      <p class="muted">
        A snapshot file holds every account, contact, list, campaign, message and pending job: save one to rehearse from it again.
      </p>
      <div class="buttons">
        <button type="button" disabled={exporting.busy} onClick={exportState}>
          Export snapshot
        </button>
        <label class="button file-button">
          Import snapshot…
          <input type="file" accept="application/json,.json" class="visually-hidden" onChange={choose} />
        </label>
        <Confirm
          label="Reset…"
          question="Reset every account to the seed the server started with? Everything made since is lost (a virtual clock goes back to its start). Export first to keep it."
          confirm="Yes, reset"
          action={resetting}
          onConfirm={async () => setDone(`Reset: ${count((await admin().reset()).accounts, "account")} from the starting seed.`)}
        />
      </div>
      <ErrorNote error={exporting.error ?? fileError} />
      {chosen ? (
        <Confirm
          open
          label="Import snapshot"
          question={`Replace the whole state with ${chosen.name}, saved at ${chosen.snapshot.savedAt} (${tally(chosen.snapshot)})? What is here now is lost: export it first to keep it.`}
          confirm="Yes, import"
          action={importing}
          onConfirm={async () => {
            const counts = await admin().restore(chosen.snapshot);
            setDone(`Imported ${chosen.name}: ${count(counts.accounts, "account")}, ${count(counts.contacts, "contact")}.`);
          }}
          onDone={() => setChosen(undefined)}
          onCancel={() => setChosen(undefined)}
        />
      ) : null}
      {done ? <Note>{done}</Note> : null}
    </section>
  );
}
