import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeMember, tokenFor } from "../support/factories";
import { getTools, invoke } from "../surfaces/agent";
import { useLocalStorage } from "./support/storage";

let storage: ReturnType<typeof useLocalStorage>;
beforeAll(() => {
  storage = useLocalStorage();
});
afterAll(() => storage.restore());

const names = (body: { tools: { name: string }[] }) => body.tools.map((tool) => tool.name);

describe("uploads on the assistant surface", () => {
  it("lists uploads_create for any one of the three write scopes, and not for read scopes", async () => {
    const ada = await makeMember({ plan: "pro" });
    for (const scope of ["profile:write", "messages:write", "items:write"] as const) {
      expect(names((await getTools(await tokenFor(ada.id, [scope]))).body), scope).toContain("uploads_create");
    }
    const readOnly = await tokenFor(ada.id, ["profile:read", "messages:read", "items:read"]);
    expect(names((await getTools(readOnly)).body)).not.toContain("uploads_create");
  });

  it("invokes with the scope of the purpose only", async () => {
    const ada = await makeMember({ plan: "pro" });
    const itemsOnly = await tokenFor(ada.id, ["items:write"]);
    const input = { purpose: "artwork", content_type: "image/jpeg", size: 2048 };
    const ok = await invoke(itemsOnly, { tool: "uploads_create", input });
    expect(ok.body.ok).toBe(true);
    expect(ok.body.result).toMatchObject({ method: "PUT", headers: { "Content-Type": "image/jpeg" } });
    const avatar = await invoke(itemsOnly, { tool: "uploads_create", input: { ...input, purpose: "avatar" } });
    expect(avatar.body.ok).toBe(false);
    expect(avatar.body.error.code).toBe("insufficient_scope");
  });
});
