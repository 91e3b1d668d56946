/** Fault rules on /v1: latency, error statuses, dropped connections. */
import type { PageProps } from "./shared.js";
import { admin, type Schemas } from "../api/admin.js";
import { Field, formValue } from "../ui/form.js";
import { useAction, useLoad } from "../ui/load.js";
import { ErrorNote, Loading, Page } from "../ui/page.js";

const OPERATIONS = ["*", "createContact", "findContact", "addContactToList", "sendCustomChannelMessage", "receiveCustomChannelMessage", "grantSubaccountCredits"] as const;
const STATUSES = ["", "429", "500", "502", "503", "504"] as const;

/** A rule as it was given, from what the server holds. */
const asInput = (rule: Schemas["FaultRule"]): Schemas["FaultRuleInput"] => ({
  operationId: rule.operationId as Schemas["FaultRuleInput"]["operationId"],
  ...(rule.latencyMs ? { latencyMs: rule.latencyMs } : {}),
  ...(rule.status ? { status: rule.status as Schemas["FaultRuleInput"]["status"], retryAfter: rule.retryAfter } : {}),
  ...(rule.drop ? { drop: true } : {}),
  rate: rule.rate,
  ...(rule.remaining !== null ? { times: rule.remaining } : {}),
});

export function Faults(_: PageProps) {
  const faults = useLoad(() => admin().faults(), []);
  const action = useAction();
  return (
    <Page title="Faults">
      <Loading loaded={faults}>
        {(rules) => (
          <>
            {rules.length === 0 ? <p class="muted">No fault rules: /v1 answers normally.</p> : null}
            <table>
              <thead>
                <tr>
                  <th scope="col">Operation</th>
                  <th scope="col">Latency</th>
                  <th scope="col">Status</th>
                  <th scope="col">Drop</th>
                  <th scope="col">Rate</th>
                  <th scope="col">Hits left</th>
                  <th scope="col">
                    <span class="visually-hidden">Remove</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rules.map((rule) => (
                  <tr key={rule.id}>
                    <td>{rule.operationId}</td>
                    <td>{rule.latencyMs} ms</td>
                    <td>{rule.status ?? "—"}</td>
                    <td>{rule.drop ? "yes" : "no"}</td>
                    <td>{rule.rate}</td>
                    <td>{rule.remaining ?? "no limit"}</td>
                    <td>
                      <button
                        type="button"
                        class="link-button"
                        onClick={() => action.run(() => admin().setFaults(rules.filter((r) => r.id !== rule.id).map(asInput)).then(faults.reload))}
                      >
                        Remove rule {rule.id}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <form
              class="card"
              aria-labelledby="new-fault"
              onSubmit={(event) => {
                event.preventDefault();
                const form = event.currentTarget;
                const rule: Schemas["FaultRuleInput"] = { operationId: formValue(form, "operationId") as Schemas["FaultRuleInput"]["operationId"] };
                const latency = Number(formValue(form, "latencyMs"));
                if (latency > 0) rule.latencyMs = latency;
                if (formValue(form, "status")) rule.status = Number(formValue(form, "status")) as Schemas["FaultRuleInput"]["status"];
                if ((form.elements.namedItem("drop") as HTMLInputElement).checked) rule.drop = true;
                rule.rate = Number(formValue(form, "rate") || 1);
                if (formValue(form, "times")) rule.times = Number(formValue(form, "times"));
                void action.run(() => admin().setFaults([...rules.map(asInput), rule]).then(faults.reload));
              }}
            >
              <h2 id="new-fault">Add a rule</h2>
              <Field label="Operation">
                {(id) => (
                  <select id={id} name="operationId">
                    {OPERATIONS.map((op) => (
                      <option key={op} value={op}>
                        {op === "*" ? "every operation" : op}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <Field label="Latency (ms)">{(id) => <input id={id} name="latencyMs" type="number" min={0} max={60000} defaultValue="0" />}</Field>
              <Field label="Answer with status">
                {(id) => (
                  <select id={id} name="status">
                    {STATUSES.map((s) => (
                      <option key={s} value={s}>
                        {s || "none"}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <label class="check">
                <input type="checkbox" name="drop" /> Drop the connection
              </label>
              <Field label="Rate (0 to 1)">{(id) => <input id={id} name="rate" type="number" min={0} max={1} step="0.01" defaultValue="1" />}</Field>
              <Field label="Times" hint="Empty: no limit.">
                {(id) => <input id={id} name="times" type="number" min={1} />}
              </Field>
              <ErrorNote error={action.error} />
              <div class="buttons">
                <button type="submit" disabled={action.busy}>
                  Add rule
                </button>
                <button type="button" disabled={action.busy} onClick={() => action.run(() => admin().clearFaults().then(faults.reload))}>
                  Remove every rule
                </button>
              </div>
            </form>
          </>
        )}
      </Loading>
    </Page>
  );
}
