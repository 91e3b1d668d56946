/**
 * Optional peer dependencies (better-sqlite3 for a data file, openai for a model): each is
 * installed by the user who needs it, so an install without them stays light. Whoever loads one
 * says, when it is missing, who needs it and the one command that installs it.
 */
export class NotInstalledError extends Error {
  override name = "NotInstalledError";
}

/** "`what` needs `name`, which is not installed: `install` (`note`)." */
export function notInstalled(what: string, name: string, install: string, note: string, cause: unknown): NotInstalledError {
  return new NotInstalledError(`${what} needs ${name}, which is not installed: ${install} (${note}).`, { cause });
}

/** Whether loading failed because `name` itself is not installed (not one of its own dependencies), by require or by import(). */
export function isNotInstalled(error: unknown, name: string): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof message !== "string") return false;
  if (code === "MODULE_NOT_FOUND") return message.startsWith(`Cannot find module '${name}'`);
  return code === "ERR_MODULE_NOT_FOUND" && message.startsWith(`Cannot find package '${name}'`);
}
