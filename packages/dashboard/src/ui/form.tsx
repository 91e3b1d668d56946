/** Forms: labelled controls, and reading a form's values. */
import type { ComponentChildren } from "preact";
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

/** The value of a form's control by name. */
export function formValue(form: HTMLFormElement, name: string): string {
  const element = form.elements.namedItem(name) as HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement | null;
  return element?.value ?? "";
}

export function formChecked(form: HTMLFormElement, name: string): boolean {
  return (form.elements.namedItem(name) as HTMLInputElement | null)?.checked ?? false;
}
