/** Fault rules on /v1: latency, error statuses, dropped connections. */
import { admin, type Schemas } from "../api/admin.js";
import { ActionForm } from "../ui/action-form.js";
import { Check, formChecked, formValue, InputField, SelectField } from "../ui/fields.js";
import { useAction, useLoad, type Action } from "../ui/load.js";
import { Loading, Page } from "../ui/page.js";
import { Table, type Column } from "../ui/table.js";
import type { PageProps } from "./shared.js";

type Rule = Schemas["FaultRule"];
type RuleInput = Schemas["FaultRuleInput"];

const OPERATIONS = [
  "*",
  "createContact",
  "findContact",
  "addContactToList",
  "sendCustomChannelMessage",
  "receiveCustomChannelMessage",
  "grantSubaccountCredits",
].map((op) => [op, op === "*" ? "every operation" : op] as const);
const STATUSES = ["", "429", "500", "502", "503", "504"].map((status) => [status, status || "none"] as const);

/** A rule as it was given, from what the server holds. */
const asInput = (rule: Rule): RuleInput => ({
  operationId: rule.operationId as RuleInput["operationId"],
  ...(rule.latencyMs ? { latencyMs: rule.latencyMs } : {}),
  ...(rule.status ? { status: rule.status as RuleInput["status"], retryAfter: rule.retryAfter } : {}),
  ...(rule.drop ? { drop: true } : {}),
  ...(rule.when === "after" ? { when: "after" as const } : {}),
  rate: rule.rate,
  ...(rule.remaining !== null ? { times: rule.remaining } : {}),
});

/** The rule the form describes. */
function ruleFrom(form: HTMLFormElement): RuleInput {
  const rule: RuleInput = { operationId: formValue(form, "operationId") as RuleInput["operationId"] };
  const latency = Number(formValue(form, "latencyMs"));
  if (latency > 0) rule.latencyMs = latency;
  if (formValue(form, "status")) rule.status = Number(formValue(form, "status")) as RuleInput["status"];
  if (formChecked(form, "drop")) rule.drop = true;
  rule.rate = Number(formValue(form, "rate") || 1);
  if (formValue(form, "times")) rule.times = Number(formValue(form, "times"));
  return rule;
}

const columns = (remove: (rule: Rule) => void): Column<Rule>[] => [
  { head: "Operation", cell: (rule) => rule.operationId },
  { head: "Latency", cell: (rule) => <>{rule.latencyMs} ms</> },
  { head: "Status", cell: (rule) => rule.status ?? "—" },
  { head: "Drop", cell: (rule) => (rule.drop ? "yes" : "no") },
  { head: "When", cell: (rule) => (rule.when === "after" ? "after the operation" : "instead of it") },
  { head: "Rate", cell: (rule) => rule.rate },
  { head: "Hits left", cell: (rule) => rule.remaining ?? "no limit" },
  {
    head: <span class="visually-hidden">Remove</span>,
    cell: (rule) => (
      <button type="button" class="link-button" onClick={() => remove(rule)}>
        Remove rule {rule.id}
      </button>
    ),
  },
];

export function Faults(_: PageProps) {
  const faults = useLoad(() => admin().faults(), []);
  const action = useAction();
  const replace = (rules: RuleInput[]) => action.run(() => admin().setFaults(rules).then(faults.reload));
  return (
    <Page title="Faults">
      <Loading loaded={faults}>
        {(rules) => (
          <>
            {rules.length === 0 ? <p class="muted">No fault rules: /v1 answers normally.</p> : null}
            <Table
              columns={columns((rule) => replace(rules.filter((r) => r.id !== rule.id).map(asInput)))}
              rows={rules}
              rowKey={(rule) => rule.id}
            />
            <NewRule
              action={action}
              onSubmit={(form) => admin().setFaults([...rules.map(asInput), ruleFrom(form)])}
              onDone={faults.reload}
              onClear={() => action.run(() => admin().clearFaults().then(faults.reload))}
            />
          </>
        )}
      </Loading>
    </Page>
  );
}

function NewRule({
  action,
  onSubmit,
  onDone,
  onClear,
}: {
  action: Action;
  onSubmit: (form: HTMLFormElement) => Promise<unknown>;
  onDone: () => void;
  onClear: () => void;
}) {
  const clear = (
    <button type="button" disabled={action.busy} onClick={onClear}>
      Remove every rule
    </button>
  );
  return (
    <ActionForm
      class="card"
      title="Add a rule"
      titleId="new-fault"
      action={action}
      submit="Add rule"
      onSubmit={onSubmit}
      onDone={onDone}
      buttons={clear}
    >
      <SelectField label="Operation" name="operationId" options={OPERATIONS} />
      <InputField label="Latency (ms)" name="latencyMs" type="number" min={0} max={60000} defaultValue="0" />
      <SelectField label="Answer with status" name="status" options={STATUSES} />
      <Check name="drop" label="Drop the connection" />
      <InputField label="Rate (0 to 1)" name="rate" type="number" min={0} max={1} step="0.01" defaultValue="1" />
      <InputField label="Times" hint="Empty: no limit." name="times" type="number" min={1} />
    </ActionForm>
  );
}
