// Fault rules given at start, or set from code later, are checked as PUT /__admin/faults checks them.
import { createIntake } from "@intake/server";
import { describe, expect, it } from "vitest";

describe("fault rules given at start", () => {
  it("are checked as PUT /__admin/faults checks them: a rule that cannot work is refused at once", async () => {
    expect(() => createIntake({ faults: [{ status: 200 as never }] })).toThrow(/^Fault rules: .*status/);
    expect(() => createIntake({ faults: [{ operationId: "createContct" as never, drop: true }] })).toThrow(/^Fault rules: .*operationId/);
    const intake = createIntake({ faults: [{ operationId: "createContact", status: 503 }] });
    expect(await intake.admin.faults()).toMatchObject([{ operationId: "createContact", status: 503 }]);
    await intake.close();
  });

  it("are checked the same when set from code later (msw users do), and a refused set changes nothing", async () => {
    const intake = createIntake({ faults: [{ operationId: "createContact", status: 503 }] });
    await expect(intake.admin.setFaults([{ status: 200 as never }])).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/status/),
    });
    expect(await intake.admin.faults()).toMatchObject([{ operationId: "createContact", status: 503 }]);
    await intake.close();
  });
});
