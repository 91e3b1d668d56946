/**
 * Which sandboxes exist: one Durable Object of its own (a sandbox's object knows only itself),
 * asked when the operator lists them, and claimed before one is made so two creates of one name
 * cannot both go ahead.
 */
import { DurableObject } from "cloudflare:workers";

export interface Listed {
  name: string;
  createdAt: string;
}

export class SandboxRegistry extends DurableObject {
  constructor(ctx: DurableObjectState, env: unknown) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS sandboxes (name TEXT PRIMARY KEY, created_at TEXT NOT NULL)");
  }

  /** Takes the name for a new sandbox, answering when (its creation time); null when one has it. */
  async claim(name: string): Promise<string | null> {
    if (this.ctx.storage.sql.exec("SELECT 1 FROM sandboxes WHERE name = ?", name).toArray().length > 0) return null;
    const createdAt = new Date().toISOString();
    this.ctx.storage.sql.exec("INSERT INTO sandboxes (name, created_at) VALUES (?, ?)", name, createdAt);
    return createdAt;
  }

  async release(name: string): Promise<void> {
    this.ctx.storage.sql.exec("DELETE FROM sandboxes WHERE name = ?", name);
  }

  async list(): Promise<Listed[]> {
    return this.ctx.storage.sql
      .exec<{ name: string; created_at: string }>("SELECT name, created_at FROM sandboxes ORDER BY created_at, name")
      .toArray()
      .map((row) => ({ name: row.name, createdAt: row.created_at }));
  }
}
