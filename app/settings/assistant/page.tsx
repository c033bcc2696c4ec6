import type { Metadata } from "next";
import { ToolConsole } from "@/components/tool-console";
import { type ToolDefinition, toolCatalog } from "@/lib/surfaces/tools";
import { SCOPES } from "@/registry/scopes";
import { invokeToolAction } from "./actions";

export const metadata: Metadata = { title: "Tool console · Personal Data Service" };

export default function AssistantPage() {
  // A signed-in member holds every scope, so the console offers the whole catalog.
  const tools = toolCatalog(SCOPES, "pds") as ToolDefinition[];
  return (
    <>
      <h1>Tool console</h1>
      <p className="lead">
        Call any tool an assistant could call, as yourself, and see exactly what it answers. Browser tools are carried
        out here: a song plays, the microphone listens, a page opens after you confirm.
      </p>
      <ToolConsole
        tools={tools.map(({ name, title, description, kind, scope, inputSchema }) => ({
          name,
          title,
          description,
          kind,
          scope,
          inputSchema,
        }))}
        invoke={invokeToolAction}
      />
    </>
  );
}
