/**
 * What intake-server prints for a person when it starts with a seed (--demo or --seed): the
 * dashboard's address, the accounts' keys and webhook secrets, the admin URL and token, and a curl
 * line that works as pasted.
 */
import type { components } from "../generated/admin.js";

type Account = components["schemas"]["Account"];

export interface Welcome {
  baseUrl: string;
  adminUrl: string;
  adminToken: string;
  /** The dashboard's address, the admin token in its fragment. */
  dashboardUrl: string;
  certificate: string;
  accounts: Account[];
  /** The server's clock: how time moves is the first thing a rehearsal of follow-ups needs. */
  clock: { mode: "real" | "virtual"; now: number };
}

/** More accounts than this are counted, not listed: a seed for a load test may hold thousands. */
const LISTED = 10;

/** How time moves, and how to make it move the other way. */
function clockLines({ mode, now }: Welcome["clock"], adminUrl: string): string[] {
  if (mode === "real") {
    return [
      "Time: the real clock. Follow-ups wait real hours and days; to move time from the dashboard's Queue & clock page, start with --clock virtual.",
      "",
    ];
  }
  return [
    `Time: a virtual clock, now ${new Date(now).toISOString()}. It moves only when you move it: the dashboard's`,
    `  Queue & clock page (Advance a minute, an hour, a day), or POST ${adminUrl}/clock/advance {"ms":86400000}.`,
    "  Queued openings, follow-ups and webhook retries run as it passes their time. Real time: --clock real.",
    "",
  ];
}

export function welcomeText({ baseUrl, adminUrl, adminToken, dashboardUrl, certificate, accounts, clock }: Welcome): string {
  const listed = accounts.slice(0, LISTED);
  const rest = accounts.length - listed.length;
  const more = rest > 0 ? [`  ... and ${rest} more: GET ${adminUrl}/accounts`] : [];
  const label = (account: Account) =>
    `${account.name} (${account.id}, ${account.kind === "subaccount" ? `sub-account of ${account.agencyId}` : account.kind})`;
  const width = Math.max(...listed.map((account) => label(account).length), 0) + 2;
  const column = (left: string, right: string) => `  ${left.padEnd(width)}${right}`;
  // A contact is created with a business's or a sub-account's key; an agency's creates none of its own.
  const sender = accounts.find((account) => account.kind !== "agency");
  const signed = listed.filter((account) => account.webhookSecret);
  return [
    "",
    `Intake reference server: ${baseUrl}`,
    `Dashboard: ${dashboardUrl}${dashboardUrl.startsWith("http:") ? " (plain HTTP, for a browser on this machine only: no certificate to trust)" : ""}`,
    "",
    "API keys:",
    ...listed.map((account) => column(label(account), account.apiKey)),
    ...more,
    "",
    ...(signed.length
      ? [
          "Webhook secrets (to verify what the server sends; set the URLs with PATCH /__admin/accounts/{id}):",
          ...signed.map((account) => column(label(account), account.webhookSecret!)),
          ...more,
          "",
        ]
      : []),
    `Admin API: ${adminUrl} (Authorization: Bearer ${adminToken}; described at ${adminUrl}/openapi.json)`,
    "",
    ...clockLines(clock, adminUrl),
    "Try it (the certificate is kept between runs; curl trusts it with --cacert):",
    sender
      ? `  curl --cacert ${certificate} -X POST '${baseUrl}/contacts?apiKey=${sender.apiKey}' -H 'Content-Type: application/json' -d '{"phone":"+14155550123","firstName":"Grace"}'`
      : `  curl --cacert ${certificate} '${adminUrl}/accounts' -H 'Authorization: Bearer ${adminToken}'`,
    "",
    "Node clients: NODE_EXTRA_CA_CERTS=" + certificate,
    "",
  ].join("\n");
}
