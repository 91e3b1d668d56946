// The data file's lock: one server at a time, and what a stale or foreign lock does.
import { openDataFile } from "@intake/server/node";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { describe, expect, it, onTestFinished } from "vitest";
import { lockFolder } from "../support/in-process.js";

describe("the data file", () => {
  const inUse = (path: string, holder: string) =>
    `${path} is in use by another server (process ${holder}; ${path}.lock): stop it, or give this one another --data-file. If no intake-server runs as that process (one killed, its process id since reused), delete ${path}.lock.`;
  const mine = `${process.pid} ${hostname()}\n`;

  it("is kept by one server at a time: <file>.lock names its process and host, a second openDataFile() is refused, a close gives it up", async () => {
    const { path, lock } = lockFolder();
    const first = openDataFile(path);
    expect(readFileSync(lock, "utf8")).toBe(mine);
    expect(() => openDataFile(path)).toThrow(`${path} is already kept by this process: close its other openDataFile() first.`);
    first.close();
    expect(existsSync(lock)).toBe(false);
    // A close made twice gives up only its own lock, never the next holder's.
    const again = openDataFile(path);
    again.close();
    writeFileSync(lock, `${process.ppid} ${hostname()}\n`);
    again.close();
    expect(readFileSync(lock, "utf8")).toBe(`${process.ppid} ${hostname()}\n`);
  });

  it("held by a process that runs on this host is refused, naming that process and the lock", async () => {
    const { path, lock } = lockFolder();
    const holder = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    onTestFinished(async () => {
      if (holder.exitCode !== null || holder.signalCode !== null) return;
      const exited = new Promise((resolve) => holder.once("exit", resolve));
      holder.kill("SIGKILL");
      await exited;
    });
    writeFileSync(lock, `${holder.pid} ${hostname()}\n`);
    expect(() => openDataFile(path)).toThrow(inUse(path, String(holder.pid)));
    expect(readFileSync(lock, "utf8")).toBe(`${holder.pid} ${hostname()}\n`);
  });

  it("held on another host is refused, naming the process and the host (it cannot be looked at from here)", async () => {
    const { path, lock } = lockFolder();
    writeFileSync(lock, `${process.pid} another-host\n`);
    expect(() => openDataFile(path)).toThrow(inUse(path, `${process.pid} on another-host`));
  });

  it("held by a process that has ended, or by this process's pid with no claim of its own (a restarted container), is taken over", async () => {
    const { path, lock } = lockFolder();
    // A server killed without a stop leaves its lock behind: here a process that ran and was reaped.
    const ended = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
    await new Promise((resolve) => ended.once("exit", resolve));
    for (const stale of [`${ended.pid} ${hostname()}\n`, mine]) {
      writeFileSync(lock, stale);
      const next = openDataFile(path);
      expect(readFileSync(lock, "utf8")).toBe(mine);
      next.close();
      expect(existsSync(lock)).toBe(false);
    }
  });

  it("with a lock that names no process (empty, as a server killed as it started leaves it) is refused, saying what to do", async () => {
    const { path, lock } = lockFolder();
    for (const unreadable of ["", "not a lock\n"]) {
      writeFileSync(lock, unreadable);
      expect(() => openDataFile(path)).toThrow(
        `${path} may be in use by another server: ${lock} does not name its process (one starting, or killed as it started). If no intake-server runs on this file, delete ${lock}.`,
      );
      expect(readFileSync(lock, "utf8")).toBe(unreadable);
    }
  });
});
