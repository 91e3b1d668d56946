/**
 * The dashboard's tables: a header row of columns, a row a record. On a narrow screen each row
 * becomes a card of labelled cells (the style sheet shows each cell's `data-label`), so no table
 * is wider than the screen. A table with no rows says so, and what would fill it, rather than
 * show its headers alone.
 */
import type { ComponentChildren } from "preact";

export interface Column<T> {
  head: ComponentChildren;
  cell: (row: T) => ComponentChildren;
  /** The cell's label on a narrow screen, when `head` is not text. */
  label?: string;
  /** The cell's class (`mono` for headers and signatures). */
  class?: string;
}

export interface TableProps<T> {
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string | number;
  rowClass?: (row: T) => string | undefined;
  caption?: ComponentChildren;
  /** A caption for screen readers only: the page's heading already says it. */
  captionHidden?: boolean;
  /** What shows in place of rows when there are none: that nothing is here yet, and what puts something here. */
  empty?: ComponentChildren;
}

export function Table<T>({ columns, rows, rowKey, rowClass, caption, captionHidden, empty = "Nothing yet." }: TableProps<T>) {
  return (
    <table class="reflow">
      {caption ? <caption class={captionHidden ? "visually-hidden" : undefined}>{caption}</caption> : null}
      <thead>
        <tr>
          {columns.map((column, i) => (
            <th key={i} scope="col">
              {column.head}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 ? (
          <tr class="empty">
            <td colSpan={columns.length}>{empty}</td>
          </tr>
        ) : null}
        {rows.map((row) => (
          <tr key={rowKey(row)} class={rowClass?.(row)}>
            {columns.map((column, i) => (
              <td key={i} class={column.class} data-label={column.label ?? (typeof column.head === "string" ? column.head : undefined)}>
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
