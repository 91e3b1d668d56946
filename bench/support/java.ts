/**
 * Java for WireMock: used where it is installed; installed from Debian's packages where it is
 * missing and this user may (root, or sudo without a password); otherwise WireMock is skipped,
 * and the report says so and how to install it.
 */
import { spawnSync } from "node:child_process";

export const JAVA_PACKAGE = "openjdk-17-jre-headless";

export type JavaPlan = { do: "use" } | { do: "install"; command: string[]; line: string } | { do: "skip"; note: string };

/** What to do about Java, from what this machine has: pure, so the choice is tested. */
export function javaPlan(machine: { java: boolean; root: boolean; sudo: boolean; apt: boolean }): JavaPlan {
  if (machine.java) return { do: "use" };
  const install = `apt-get update && apt-get install -y ${JAVA_PACKAGE}`;
  if (machine.apt && (machine.root || machine.sudo)) {
    const sudo = machine.root ? "" : "sudo ";
    return {
      do: "install",
      command: ["sh", "-c", `${sudo}apt-get update -q && ${sudo}apt-get install -y -q ${JAVA_PACKAGE}`],
      line: `Java is missing: installing ${JAVA_PACKAGE} for WireMock (${sudo}${install}).`,
    };
  }
  return {
    do: "skip",
    note: `WireMock was not measured: Java is missing, and this machine has no apt-get to run as root or with sudo. Install Java 17 (on Debian, as root: ${install}) and run again.`,
  };
}

const runs = (command: string, args: string[]) => spawnSync(command, args, { stdio: "ignore" }).status === 0;

/** Whether `java -version` runs here. */
export const hasJava = () => runs("java", ["-version"]);

/** Java ready for WireMock, installing it if missing and allowed; the note for the report when it is not. */
export function ensureJava(log: (line: string) => void): { ready: true } | { ready: false; note: string } {
  const plan = javaPlan({
    java: hasJava(),
    root: process.getuid?.() === 0,
    sudo: runs("sudo", ["-n", "true"]),
    apt: runs("apt-get", ["--version"]),
  });
  if (plan.do === "use") return { ready: true };
  if (plan.do === "skip") {
    log(plan.note);
    return { ready: false, note: plan.note };
  }
  log(plan.line);
  const [command, ...args] = plan.command;
  if (spawnSync(command!, args, { stdio: ["ignore", "ignore", "inherit"] }).status === 0 && hasJava()) return { ready: true };
  const note = `WireMock was not measured: installing ${JAVA_PACKAGE} failed (${plan.command.join(" ")}).`;
  log(note);
  return { ready: false, note };
}
