/**
 * The model bot's recording on disk (model-bot/recording.ts says what it holds): read whole at
 * start, created at once in record mode (so a path that cannot be written fails at start), and
 * written whole for each answer: a temporary file beside it, flushed to the disk, renamed over it.
 * The rename is atomic, so a crash mid-run leaves the file as the last answer left it, never half
 * written.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { open, rename, rm } from "node:fs/promises";

export interface RecordingFile {
  readonly path: string;
  /** The file's text; undefined when there is no file. Throws when it cannot be read. */
  read(): string | undefined;
  /** Creates the file holding `text`; throws if it exists or cannot be made. */
  create(text: string): void;
  /** Replaces the file's text, atomically. */
  write(text: string): Promise<void>;
}

export function recordingFile(path: string): RecordingFile {
  return {
    path,
    read() {
      try {
        return readFileSync(path, "utf8");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw error;
      }
    },
    create: (text) => writeFileSync(path, text, { flag: "wx" }),
    async write(text) {
      const temporary = `${path}.${process.pid}.tmp`;
      try {
        const handle = await open(temporary, "w");
        try {
          await handle.writeFile(text);
          await handle.sync();
        } finally {
          await handle.close();
        }
        await rename(temporary, path);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    },
  };
}
