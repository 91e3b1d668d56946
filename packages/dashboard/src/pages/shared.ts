/** What every page is given by the shell, and what several pages share. */
import type { Account } from "../api/admin.js";

export interface PageProps {
  accountId: string;
  /** Undefined until the accounts are loaded. */
  account: Account | undefined;
  accounts: Account[];
  reloadAccounts: () => void;
}

/** Rows a page of contacts (or of a list's members) shows. */
export const PAGE_SIZE = 50;
