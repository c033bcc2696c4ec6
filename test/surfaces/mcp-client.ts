import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import * as mcpRoute from "@/app/api/mcp/route";

// The SDK's own client, with a fetch that hands each request to the real route handler in-process.
export const routeFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
  const request = new Request(input, init);
  const handler = (mcpRoute as unknown as Record<string, (r: Request) => Promise<Response>>)[request.method];
  if (!handler) return new Response(null, { status: 405 });
  return handler(request);
};

/** A connected MCP client for the token; the caller closes it. */
export async function connectMcp(token: string, headers: Record<string, string> = {}): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL("http://localhost/api/mcp"), {
    fetch: routeFetch,
    requestInit: { headers: { authorization: `Bearer ${token}`, ...headers } },
  });
  const client = new Client({ name: "pds-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

/** One tools/call over a fresh connection. */
export async function mcpCall(token: string, tool: string, args: Record<string, unknown>) {
  const client = await connectMcp(token);
  try {
    return await client.callTool({ name: tool, arguments: args });
  } finally {
    await client.close();
  }
}
