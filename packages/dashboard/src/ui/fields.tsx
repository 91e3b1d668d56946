/** A form's controls, each with its label, and reading their values. */
import type { ComponentChildren, InputHTMLAttributes, TargetedEvent, TextareaHTMLAttributes } from "preact";
import { useRef } from "preact/hooks";

let fieldIds = 0;
/** A labelled control: the label names it for screen readers and clicks. */
export function Field({ label, hint, children }: { label: string; hint?: string; children: (id: string) => ComponentChildren }) {
  const id = useRef(`f${++fieldIds}`).current;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children(id)}
      {hint ? <small class="muted">{hint}</small> : null}
    </div>
  );
}

type Labelled = { label: string; hint?: string };

export function InputField({ label, hint, ...input }: Labelled & InputHTMLAttributes) {
  return (
    <Field label={label} hint={hint}>
      {(id) => <input id={id} {...input} />}
    </Field>
  );
}

export function TextAreaField({ label, hint, ...area }: Labelled & TextareaHTMLAttributes) {
  return (
    <Field label={label} hint={hint}>
      {(id) => <textarea id={id} {...area} />}
    </Field>
  );
}

/** A choice among `options` ([value, label] pairs, or values that are their own labels). */
export function SelectField({
  label,
  hint,
  name,
  options,
  value,
}: Labelled & { name: string; options: readonly (string | readonly [string, string])[]; value?: string | null }) {
  return (
    <Field label={label} hint={hint}>
      {(id) => (
        // Preact sets no default on a select: the option says it is selected.
        <select id={id} name={name}>
          {options.map((option) => {
            const [key, text] = typeof option === "string" ? [option, option] : option;
            return (
              <option key={key} value={key} selected={value === undefined ? undefined : key === (value ?? "")}>
                {text}
              </option>
            );
          })}
        </select>
      )}
    </Field>
  );
}

export interface CheckProps {
  label: string;
  name?: string;
  checked?: boolean;
  defaultChecked?: boolean;
  onChange?: (event: TargetedEvent<HTMLInputElement>) => void;
}

/** A checkbox inside its label. */
export function Check({ label, name, checked, defaultChecked, onChange }: CheckProps) {
  return (
    <label class="check">
      <input type="checkbox" name={name} checked={checked} defaultChecked={defaultChecked} onChange={onChange} />
      {` ${label}`}
    </label>
  );
}

/** The value of a form's control by name. */
export function formValue(form: HTMLFormElement, name: string): string {
  const element = form.elements.namedItem(name) as HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement | null;
  return element?.value ?? "";
}

export function formChecked(form: HTMLFormElement, name: string): boolean {
  return (form.elements.namedItem(name) as HTMLInputElement | null)?.checked ?? false;
}
