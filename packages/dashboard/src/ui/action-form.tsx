/** A form that runs an action when sent: its fields, the action's error and what it has done, then its button. */
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import type { Action } from "./load.js";
import { ErrorNote, Note } from "./page.js";

export interface ActionFormProps<T> {
  action: Action;
  /** Sends what the form holds; runs as the action, whose error shows above the button. */
  onSubmit: (form: HTMLFormElement) => Promise<T>;
  onDone?: (result: T, form: HTMLFormElement) => void;
  /** The submit button's text. */
  submit: string;
  /** Said once a submission has succeeded, until the next. */
  done?: string;
  /** A heading for a card of its own, and its id (the form is labelled by it). */
  title?: string;
  titleId?: string;
  class?: string;
  "aria-label"?: string;
  /** Buttons beside the submit button. */
  buttons?: ComponentChildren;
  /** What follows the button. */
  after?: ComponentChildren;
  children: ComponentChildren;
}

/** The action's error and the `done` note show above the button, which is busy while the action runs. */
export function ActionForm<T>({
  action,
  onSubmit,
  onDone,
  submit,
  done,
  title,
  titleId,
  buttons,
  after,
  children,
  class: className,
  "aria-label": label,
}: ActionFormProps<T>) {
  const [succeeded, setSucceeded] = useState(false);
  const send = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    let result: T;
    setSucceeded(false);
    if (await action.run(async () => (result = await onSubmit(form)))) {
      setSucceeded(true);
      onDone?.(result!, form);
    }
  };
  const button = (
    <button type="submit" disabled={action.busy}>
      {submit}
    </button>
  );
  return (
    <form class={className} aria-labelledby={titleId} aria-label={label} onSubmit={send}>
      {title ? <h2 id={titleId}>{title}</h2> : null}
      {children}
      <ErrorNote error={action.error} />
      {done && succeeded ? <Note>{done}</Note> : null}
      {buttons ? (
        <div class="buttons">
          {button}
          {buttons}
        </div>
      ) : (
        button
      )}
      {after}
    </form>
  );
}
