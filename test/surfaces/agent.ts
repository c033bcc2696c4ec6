import * as invokeRoute from "@/app/api/agent/invoke/route";
import * as toolsRoute from "@/app/api/agent/tools/route";

/** Calls the real /api/agent route handlers in-process, as `next start` would after routing. */
export interface AgentResponse {
  status: number;
  headers: Headers;
  body: any;
}

async function read(response: Response): Promise<AgentResponse> {
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

export async function getTools(token: string | undefined, query = ""): Promise<AgentResponse> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  return read(await toolsRoute.GET(new Request(`http://localhost/api/agent/tools${query}`, { headers })));
}

export async function invoke(
  token: string | undefined,
  envelope: unknown,
  extraHeaders: Record<string, string> = {},
): Promise<AgentResponse> {
  const headers: Record<string, string> = { "content-type": "application/json", ...extraHeaders };
  if (token) headers.authorization = `Bearer ${token}`;
  const request = new Request("http://localhost/api/agent/invoke", {
    method: "POST",
    headers,
    body: typeof envelope === "string" ? envelope : JSON.stringify(envelope),
  });
  return read(await invokeRoute.POST(request));
}
