import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createMember, findMemberByEmail, setPlan } from "@/lib/auth/members";

describe("members by email", () => {
  it("finds and changes a member whatever the case of the email", async () => {
    const email = `Ada.${randomUUID()}@Example.test`;
    const created = await createMember({ email, password: "correct horse" });
    expect((await findMemberByEmail(email.toLowerCase()))?.id).toBe(created.id);
    expect((await findMemberByEmail(` ${email.toUpperCase()} `))?.id).toBe(created.id);
    expect((await setPlan(email.toUpperCase(), "pro"))?.plan).toBe("pro");
  });

  it("refuses a second member with the same email in another case", async () => {
    const email = `grace.${randomUUID()}@example.test`;
    await createMember({ email });
    await expect(createMember({ email: email.toUpperCase() })).rejects.toMatchObject({ code: "23505" });
  });
});
