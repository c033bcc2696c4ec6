import type { ReactNode } from "react";
import { SettingsNav } from "@/components/settings-nav";
import { SiteHeader } from "@/components/site-header";
import { requireMember } from "@/lib/web/session";

export const dynamic = "force-dynamic";

export default async function SettingsLayout({ children }: { children: ReactNode }) {
  const member = await requireMember();
  return (
    <>
      <SiteHeader email={member.email} />
      <div className="settings">
        <SettingsNav />
        <main id="content" className="settings-main">
          {children}
        </main>
      </div>
    </>
  );
}
