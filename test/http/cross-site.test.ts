import { describe, expect, it } from "vitest";
import { crossSiteRefusal } from "@/lib/http/cross-site";

const headers = (init: Record<string, string>) => new Headers({ host: "pds.example", ...init });

// The browser suite (e2e/trust-boundaries.spec.ts) sends these through server.ts and Next's proxy.
describe("the refusal of a state-changing page request from another site", () => {
  it("refuses a cross-site or malformed Origin on anything but GET, HEAD and OPTIONS", () => {
    for (const origin of ["https://evil.example", "null", "http://evil.example@pds.example", "https://pds.example/x"]) {
      expect(crossSiteRefusal("POST", headers({ origin }))?.status).toBe(403);
    }
    expect(crossSiteRefusal("PUT", headers({ origin: "https://evil.example" }))?.status).toBe(403);
    expect(crossSiteRefusal("GET", headers({ origin: "https://evil.example" }))).toBeUndefined();
    expect(crossSiteRefusal("POST", headers({ origin: "https://pds.example" }))).toBeUndefined();
    // No Origin: each action checks Sec-Fetch-Site itself (lib/web/csrf.ts).
    expect(crossSiteRefusal("POST", headers({}))).toBeUndefined();
  });

  it("answers a short page, or problem+json to a client that asks for JSON", async () => {
    const page = crossSiteRefusal("POST", headers({ origin: "https://evil.example", accept: "text/html,*/*" }));
    expect(page?.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await page?.text()).toContain("sent from another site");
    const json = crossSiteRefusal("POST", headers({ origin: "https://evil.example", accept: "application/json" }));
    expect(json?.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
    expect(await json?.json()).toMatchObject({ type: "about:blank", title: "Forbidden", status: 403 });
    expect(json?.headers.get("request-id")).toMatch(/^req_/);
  });
});
