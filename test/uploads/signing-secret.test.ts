import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { uploadSigningSecret } from "@/lib/domain/uploads/signing-secret";

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pds-secret-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe("the local driver's signing secret", () => {
  it("is generated once into the data folder with mode 0600 and kept", () => {
    const dir = path.join(tempDir(), "nested");
    const secret = uploadSigningSecret(dir, {});
    const file = path.join(dir, "upload-signing-secret");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, "utf8")).toBe(secret.toString());
    expect(secret.length).toBeGreaterThanOrEqual(32);
    expect(uploadSigningSecret(dir, {}).equals(secret)).toBe(true);
  });

  it("reads a secret written by an earlier process instead of replacing it", () => {
    const dir = tempDir();
    const earlier = "an-earlier-process-wrote-this-secret-0123456789";
    fs.writeFileSync(path.join(dir, "upload-signing-secret"), earlier, { mode: 0o600 });
    expect(uploadSigningSecret(dir, {}).toString()).toBe(earlier);
  });

  it("prefers UPLOAD_SIGNING_SECRET and refuses a short one", () => {
    const dir = tempDir();
    const configured = "configured-secret-with-more-than-32-chars";
    expect(uploadSigningSecret(dir, { UPLOAD_SIGNING_SECRET: configured }).toString()).toBe(configured);
    expect(fs.existsSync(path.join(dir, "upload-signing-secret"))).toBe(false);
    expect(() => uploadSigningSecret(dir, { UPLOAD_SIGNING_SECRET: "short" })).toThrow(/at least 32/);
  });
});
