/** Rows of fields to add and remove, kept in state while the form around them is edited. */
import type { InputHTMLAttributes } from "preact";
import { Field } from "./fields.js";

export interface RowsEditorProps<T> {
  legend: string;
  /** What a row is: "Add FAQ", "Remove FAQ 2". */
  noun: string;
  rows: T[];
  onChange: (rows: T[]) => void;
  /** A new row. */
  blank: T;
  /**
   * A field a row, labelled with the row's number ("Question 2"), with its input's own attributes
   * (a type); `lines` makes it a text area that many lines high, for text longer than a line.
   */
  fields: { key: keyof T & string; label: string; input?: InputHTMLAttributes; lines?: number }[];
}

export function RowsEditor<T extends object>({ legend, noun, rows, onChange, blank, fields }: RowsEditorProps<T>) {
  const edit = (i: number, key: keyof T, value: string) => onChange(rows.map((row, j) => (j === i ? { ...row, [key]: value } : row)));
  return (
    <fieldset>
      <legend>{legend}</legend>
      {rows.map((row, i) => (
        <div class="row" key={i}>
          {fields.map(({ key, label, input, lines }) => {
            const value = (row[key] as string | undefined) ?? "";
            return (
              <Field key={key} label={`${label} ${i + 1}`}>
                {(id) =>
                  lines ? (
                    <textarea id={id} rows={lines} value={value} onInput={(e) => edit(i, key, e.currentTarget.value)} />
                  ) : (
                    <input id={id} {...input} value={value} onInput={(e) => edit(i, key, e.currentTarget.value)} />
                  )
                }
              </Field>
            );
          })}
          <button type="button" class="link-button" onClick={() => onChange(rows.filter((_, j) => j !== i))}>
            {`Remove ${noun} `}
            {i + 1}
          </button>
        </div>
      ))}
      <button type="button" onClick={() => onChange([...rows, blank])}>
        {`Add ${noun}`}
      </button>
    </fieldset>
  );
}
