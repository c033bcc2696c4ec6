import type { Metadata } from "next";
import { headers } from "next/headers";
import { ProfileForm, type ProfileValues } from "@/components/profile-form";
import { memberCaller, requireMember } from "@/lib/web/session";
import { callAsSession } from "@/lib/web/session-call";
import { profile } from "@/registry/resources/profile";
import { updateProfileAction } from "./actions";

export const metadata: Metadata = { title: "Profile · Personal Data Service" };

export default async function ProfilePage() {
  const member = await requireMember();
  const result = await callAsSession(memberCaller(member), "profile_get", {}, await headers());
  if (!result.ok) throw new Error(`profile_get failed: ${result.problem.detail}`);
  const consent = profile.fields.attachment_consent?.description ?? "";
  return (
    <>
      <h1>Profile</h1>
      <p className="lead">What other members see, and who may send you attachments.</p>
      <ProfileForm
        action={updateProfileAction}
        profile={result.body as ProfileValues}
        timezones={Intl.supportedValuesOf("timeZone")}
        consentHelp={consent}
      />
    </>
  );
}
