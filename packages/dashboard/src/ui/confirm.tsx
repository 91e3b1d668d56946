/** A button that asks first: what it will do, and a second button that does it (or Cancel). */
import { useEffect, useRef, useState } from "preact/hooks";
import type { Action } from "./load.js";
import { ErrorNote } from "./page.js";

export interface ConfirmProps {
  /** The first button's text. */
  label: string;
  /** What will happen, asked once the first button is pressed. */
  question: string;
  /** The button that does it. */
  confirm: string;
  action: Action;
  onConfirm: () => Promise<unknown>;
  onDone?: () => void;
  /** Asked at once (a file just chosen), without the first button. */
  open?: boolean;
  onCancel?: () => void;
}

export function Confirm({ label, question, confirm, action, onConfirm, onDone, open = false, onCancel }: ConfirmProps) {
  const [asking, setAsking] = useState(open);
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => setAsking(open), [open]);
  // Keyboard users land on the choice they were just asked.
  useEffect(() => {
    if (asking) first.current?.focus();
  }, [asking]);
  const cancel = () => (setAsking(false), onCancel?.());
  if (!asking) {
    return (
      <button type="button" class="danger" onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  const run = async () => {
    if (await action.run(onConfirm)) {
      setAsking(false);
      onDone?.();
    }
  };
  return (
    <div class="confirm" role="group" aria-label={label}>
      <p>{question}</p>
      <ErrorNote error={action.error} />
      <div class="buttons">
        <button ref={first} type="button" class="danger" disabled={action.busy} onClick={run}>
          {confirm}
        </button>
        <button type="button" onClick={cancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
