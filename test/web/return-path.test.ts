import { describe, expect, it } from "vitest";
import { DEFAULT_RETURN, returnPath } from "@/lib/web/return-path";

describe("the return path after signing in", () => {
  it("goes back to an authorization request or a settings page", () => {
    expect(returnPath("/oauth/authorize?client_id=x&state=y")).toBe("/oauth/authorize?client_id=x&state=y");
    expect(returnPath("/settings/connected-apps")).toBe("/settings/connected-apps");
  });

  it("never to another site or anywhere else", () => {
    for (const value of [
      "",
      "https://evil.test/oauth/authorize?x",
      "//evil.test/settings",
      "/\\evil.test/settings",
      "/settings\\..\\x",
      "/oauth/authorize",
      "/docs",
      "/settings/tokens\n",
      "javascript:alert(1)",
    ]) {
      expect(returnPath(value)).toBe(DEFAULT_RETURN);
    }
  });
});
