/**
 * The dashboard with a large state: CONTACTS contacts (100,000) and MESSAGES messages (500,000,
 * five a contact) stored, restored from a snapshot into the server (in this process, served by the
 * node adapter), and Debian's Chromium (headless, through playwright-core) on the printed link
 * (plain HTTP on loopback: no certificate to trust).
 *
 * - Every page: from navigation start to usable (its heading on screen and nothing loading; the
 *   contacts page and a conversation: their first page of rows), read in the page
 *   (`performance.now()`), each ROUNDS times in a fresh tab. Also a name search that scans every
 *   contact. Target: usable within 1 s.
 * - Events: with a page open, an API call made outside the browser, from just before the request
 *   to its effect on screen: a contact created through /v1 on the contacts page, an inbound
 *   message through /v1 on its conversation, a webhook posted to the inbox on the inbox page.
 *   Both times are the machine's wall clock. Target: p95 under 100 ms each (the maximum beside).
 * - The dashboard's JavaScript, min+gzip (level 9). Target: ≤ 100 kB.
 *
 * Run: npm run bench:dashboard   (writes bench/results/dashboard.{md,json}; CONTACTS, ROUNDS, EVENTS to change)
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { createIntake } from "@intake/server";
import { serve } from "@intake/server/node";
import { chromium, type Page } from "playwright-core";
import { Agent } from "undici";
import { BENCH_ACCOUNT, benchPhone, bigSnapshot } from "./support/big-state.js";
import { fmt, verdict } from "./support/figures.js";
import { runLine, writeReport } from "./support/report.js";

const CONTACTS = Number(process.env.CONTACTS ?? 100_000);
const PER_CONTACT = 5;
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const EVENTS = Number(process.env.EVENTS ?? 30);
const LOAD_TARGET_MS = 1000;
const EVENT_TARGET_MS = 100;
const SIZE_TARGET = 100 * 1024;
const KEY = "ik_bench_dashboard_key_00001";
const TOKEN = "adm_bench_dashboard_token_001";
const log = (line: string) => console.log(line);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(values.length * 0.95) - 1)]!;
const max = (values: number[]) => Math.max(...values);

log(`building a state of ${fmt(CONTACTS)} contacts and ${fmt(CONTACTS * PER_CONTACT)} messages`);
const restoreStarted = performance.now();
const intake = createIntake({ snapshot: await bigSnapshot(CONTACTS, PER_CONTACT, KEY), adminToken: TOKEN, rateLimit: 0, clock: "virtual" });
const restoreMs = performance.now() - restoreStarted;
const server = await serve(intake, { port: 0 });
const dispatcher = new Agent({ connect: { ca: server.certificate } });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
const last = CONTACTS - 1;
const account = `account=${BENCH_ACCOUNT}`;
const rows = { selector: "main table tbody tr", count: 50 };

/** Each page, and what shows it is usable: `count` elements matching `selector`, or (none given) its heading with nothing loading. */
const PAGES: { name: string; path: string; selector?: string; count?: number }[] = [
  { name: "Contacts, first page (50)", path: `contacts?${account}`, ...rows },
  { name: "Contacts, last page", path: `contacts?${account}&offset=${CONTACTS - 50}`, ...rows },
  {
    name: "Contacts, a name search scanning all",
    path: `contacts?${account}&q=${encodeURIComponent(`Lead${last} `)}`,
    selector: rows.selector,
    count: 1,
  },
  {
    name: `A conversation (${PER_CONTACT} messages)`,
    path: `contacts/ct_b${last}?${account}`,
    selector: "ol.chat > li",
    count: PER_CONTACT,
  },
  ...[
    "lists",
    "lists/lst_bench",
    "campaigns",
    "campaigns/cmp_bench",
    "deliveries",
    "queue",
    "alerts",
    "journal",
    "inbox",
    "faults",
    "settings",
  ].map((path) => ({ name: path, path: `${path}?${account}` })),
];

/**
 * A fresh tab on `path`, logged in from the printed link, resolving with the in-page time from
 * navigation start to usable (a function, not a string: the page's CSP allows no eval).
 */
async function timedLoad(path: string, selector?: string, count = 1): Promise<{ page: Page; ms: number }> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${server.dashboardUrl}${path}#token=${TOKEN}`, { waitUntil: "commit" });
  const handle = await page.waitForFunction(
    ({ selector, count }) => {
      const main = document.querySelector("main");
      const ready = selector
        ? document.querySelectorAll(selector).length >= count
        : main?.querySelector("h1") && !main.textContent?.includes("Loading…");
      return ready && performance.now();
    },
    { selector, count },
    { timeout: 30_000, polling: "raf" },
  );
  return { page, ms: (await handle.jsonValue()) as number };
}

/** Times from just before each of EVENTS calls to the text it was given on the open page. */
async function timedEvents(page: Page, call: (text: string, i: number) => Promise<void>): Promise<number[]> {
  await page.evaluate(() => {
    const w = window as unknown as { __wanted: Set<string>; __seen: Record<string, number> };
    w.__wanted = new Set();
    w.__seen = {};
    new MutationObserver(() => {
      const text = document.querySelector("main")?.textContent ?? "";
      for (const wanted of w.__wanted) {
        if (!text.includes(wanted)) continue;
        w.__seen[wanted] = Date.now();
        w.__wanted.delete(wanted);
      }
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  const delays: number[] = [];
  for (let i = 0; i < EVENTS; i++) {
    const text = `live-${i}-${Date.now()}`;
    await page.evaluate((t) => (window as unknown as { __wanted: Set<string> }).__wanted.add(t), text);
    const sentAt = Date.now();
    await call(text, i);
    await page.waitForFunction((t) => (window as unknown as { __seen: Record<string, number> }).__seen[t] !== undefined, text, {
      timeout: 10_000,
      polling: 5,
    });
    delays.push((await page.evaluate((t) => (window as unknown as { __seen: Record<string, number> }).__seen[t]!, text)) - sentAt);
    // Let what the call set off (the bot's answer, its delivery) and the page's reload pass before the next one.
    await intake.admin.settle();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return delays;
}

/** A POST over HTTPS, failing on anything but 2xx. */
async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await globalThis.fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
    dispatcher,
  } as RequestInit);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
}

try {
  const assets = fileURLToPath(new URL("../packages/dashboard/dist/assets/", import.meta.url));
  const js = readdirSync(assets).filter((name) => name.endsWith(".js"));
  const gzipped = js.reduce((sum, name) => sum + gzipSync(readFileSync(`${assets}${name}`), { level: 9 }).length, 0);
  log(`restored in ${fmt(restoreMs)} ms; JavaScript ${fmt(gzipped / 1024, 1)} kB min+gzip`);

  const loads = new Map(PAGES.map((page) => [page.name, [] as number[]]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const { name, path, selector, count } of PAGES) {
      const { page, ms } = await timedLoad(path, selector, count);
      loads.get(name)!.push(ms);
      await page.context().close();
    }
    log(`round ${round + 1}: ${PAGES.map(({ name }) => `${name} ${fmt(loads.get(name)!.at(-1)!)} ms`).join(", ")}`);
  }

  // Events: each page open, API calls from outside the browser, each timed to its effect on screen.
  const events: Record<string, number[]> = {};
  const contacts = await timedLoad(`contacts?${account}`, rows.selector, rows.count);
  events["Contacts: a contact created through /v1"] = await timedEvents(contacts.page, (text, i) =>
    post(`${server.baseUrl}/contacts?apiKey=${KEY}`, { phone: benchPhone(CONTACTS + i), firstName: text }),
  );
  const target = CONTACTS - 2;
  const conversation = await timedLoad(`contacts/ct_b${target}?${account}`, "ol.chat > li", PER_CONTACT);
  events["Conversation: a message received through /v1"] = await timedEvents(conversation.page, (text, i) =>
    post(`${server.baseUrl}/incoming_custom_channel_message?apiKey=${KEY}`, {
      customData: { messageSid: `live_${i}`, fromId: benchPhone(target), toId: "bench", body: text },
    }),
  );
  const inbox = await timedLoad(`inbox?${account}`);
  // The webhook-id is what the inbox's list shows of a request; the body is behind its details.
  events["Inbox: a webhook posted to it"] = await timedEvents(inbox.page, (text) =>
    post(`${server.origin}/__inbox/${BENCH_ACCOUNT}`, { body: "A webhook from elsewhere" }, { "webhook-id": text }),
  );
  for (const [what, delays] of Object.entries(events))
    log(`${what}: median ${fmt(median(delays))} ms, p95 ${fmt(p95(delays))} ms, max ${fmt(max(delays))} ms`);

  const loadRow = ([name, values]: [string, number[]]) =>
    `| ${name} | ${fmt(median(values))} | ${fmt(max(values))} | ${verdict(max(values) <= LOAD_TARGET_MS)} |`;
  const eventRow = ([what, delays]: [string, number[]]) =>
    `| ${what} | ${fmt(median(delays))} | ${fmt(p95(delays))} | ${fmt(max(delays))} | ${verdict(p95(delays) < EVENT_TARGET_MS)} |`;
  const markdown = `
# Dashboard with a large state

${runLine()}. ${fmt(CONTACTS)} contacts and ${fmt(CONTACTS * PER_CONTACT)} messages, restored from a snapshot (${fmt(restoreMs / 1000, 1)} s) into the server in the benchmark's process (node adapter), headless Chromium (Debian's, playwright-core) on the printed link (plain HTTP on loopback) in a fresh tab for each load. Load: from navigation start to the page usable (its rows, a conversation's messages, or its heading with nothing loading), in the page's clock; ${ROUNDS} rounds. Target: usable within ${fmt(LOAD_TARGET_MS)} ms.

| page | median ms | max ms | target |
|---|---:|---:|---|
${[...loads].map(loadRow).join("\n")}

Events: the page open, ${EVENTS} API calls made outside the browser one at a time; from just before each request to its effect on screen (the request, the event on the admin stream, the page loading what it shows again, the render). Target: p95 under ${EVENT_TARGET_MS} ms.

| call, and where it shows | median ms | p95 ms | max ms | target (p95) |
|---|---:|---:|---:|---|
${Object.entries(events).map(eventRow).join("\n")}

JavaScript: ${js.length} file(s), ${fmt(gzipped / 1024, 1)} kB min+gzip (level 9). Target: ≤ ${SIZE_TARGET / 1024} kB: ${verdict(gzipped <= SIZE_TARGET)}.
`;
  const slowest = [...loads].reduce((worst, entry) => (max(entry[1]) > max(worst[1]) ? entry : worst));
  const checks = [
    {
      what: `every page usable with ${fmt(CONTACTS)} contacts, slowest (${slowest[0]}) of ${ROUNDS} rounds`,
      value: `${fmt(max(slowest[1]))} ms`,
      target: `≤ ${fmt(LOAD_TARGET_MS)} ms`,
      met: max(slowest[1]) <= LOAD_TARGET_MS,
    },
    ...Object.entries(events).map(([what, delays]) => ({
      what: `${what}, to screen, p95`,
      value: `${fmt(p95(delays))} ms`,
      target: `< ${EVENT_TARGET_MS} ms`,
      met: p95(delays) < EVENT_TARGET_MS,
    })),
    {
      what: "dashboard JavaScript, min+gzip",
      value: `${fmt(gzipped / 1024, 1)} kB`,
      target: `≤ ${SIZE_TARGET / 1024} kB`,
      met: gzipped <= SIZE_TARGET,
    },
  ];
  await writeReport("dashboard", markdown, {
    checks,
    contacts: CONTACTS,
    messages: CONTACTS * PER_CONTACT,
    restoreMs,
    loads: Object.fromEntries(loads),
    eventDelaysMs: events,
    javascriptGzipBytes: gzipped,
  });
  log(markdown);
} finally {
  await browser.close();
  await server.close();
  await intake.close();
  await dispatcher.close();
}
