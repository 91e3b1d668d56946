/** Pages of a long list: Previous and Next, each a link that keeps the rest of the query. */
import { Link } from "./text.js";

export interface PagerProps {
  label: string;
  to: string;
  query?: Record<string, string | undefined>;
  offset: number;
  size: number;
  /** Rows loaded: one more than a page says there is a next one. */
  count: number;
  /** Show which rows these are ("51–100"). */
  range?: boolean;
}

export function Pager({ label, to, query = {}, offset, size, count, range }: PagerProps) {
  return (
    <nav class="pager" aria-label={label}>
      {offset > 0 ? (
        <Link to={to} query={{ ...query, offset: String(Math.max(0, offset - size)) }}>
          Previous page
        </Link>
      ) : null}
      {range ? <span class="muted">{count ? `${offset + 1}–${offset + Math.min(count, size)}` : ""}</span> : null}
      {count > size ? (
        <Link to={to} query={{ ...query, offset: String(offset + size) }}>
          Next page
        </Link>
      ) : null}
    </nav>
  );
}
