import { DEMO_KEYS } from "@intake/server/node";
import type { IntakeTestServer } from "@intake/server/testing";
import type { QuickstartConfig } from "./quickstart.js";

/** The quickstart pointed at a reference server started with its demo seed (the demo and its test). */
export function demoConfig(server: IntakeTestServer): QuickstartConfig {
  return {
    baseUrl: server.baseUrl,
    fetch: server.fetch,
    apiKey: DEMO_KEYS.business,
    agencyKey: DEMO_KEYS.agency,
    listId: "lst_spring_leads",
    subaccountEmail: "client-one@northwind.example",
  };
}
