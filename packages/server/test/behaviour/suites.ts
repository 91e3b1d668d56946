/** Every behaviour suite, in the order they run against each target. */
import { admin } from "./admin.js";
import { auth } from "./auth.js";
import type { Register } from "./cases.js";
import { contacts } from "./contacts.js";
import { credits } from "./credits.js";
import { deleting } from "./deleting.js";
import { faults } from "./faults.js";
import { lists } from "./lists.js";
import { messages } from "./messages.js";
import { transport } from "./transport.js";

export const SUITES: Register[] = [contacts, lists, messages, credits, auth, transport, admin, deleting, faults];

/** Through prism proxy: fault rules make the server fail on purpose (drops, proxy statuses), which prism reports as violations. */
export const SUITES_VIA_PROXY: Register[] = SUITES.filter((suite) => suite !== faults);
