// The same cases against the real HTTPS server the global set-up started.
import { connectIntake } from "@intake/server/connect";
import { afterAll, inject } from "vitest";
import { signupCases } from "./cases.js";

const intake = connectIntake(inject("intake"));
afterAll(() => intake.fetch.close());

signupCases(() => intake);
