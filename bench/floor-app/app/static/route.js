// The framework floor: Next's per-request cost with no work of ours (a fixed JSON body).
export const dynamic = "force-dynamic";

export function GET() {
  return Response.json({ status: "ok" });
}
