import { exportDownload } from "@/lib/web/export-download";

export const dynamic = "force-dynamic";

export const POST = (request: Request) => exportDownload(request);
