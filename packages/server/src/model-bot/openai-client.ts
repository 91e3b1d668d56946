/**
 * The `openai` client, an optional peer dependency (20 MB installed): loaded when a model is asked,
 * never in replay mode nor by a server without a model, so an install that needs none stays light.
 */
import type * as OpenAIModule from "openai";
import { isNotInstalled, notInstalled } from "../shared/optional-peer.js";

/** The one command a user runs to get it; the range is the peer dependency's in package.json. */
export const OPENAI_INSTALL = "npm install openai@^6";

/** The module; throws a NotInstalledError saying what to install when it is missing. `what` names who needs it. */
export async function loadOpenAI(what: string): Promise<typeof OpenAIModule> {
  try {
    return await import("openai");
  } catch (error) {
    if (!isNotInstalled(error, "openai")) throw error;
    throw notInstalled(what, "openai", OPENAI_INSTALL, "the client the model bot asks its endpoint with", error);
  }
}
