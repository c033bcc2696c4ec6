import type { Metadata } from "next";
import { BlockForm } from "@/components/block-form";
import { SubmitButton } from "@/components/submit-button";
import { listBlocks } from "@/lib/web/blocks";
import { formatDateTime } from "@/lib/web/format";
import { requireMember } from "@/lib/web/session";
import { blockAction, unblockAction } from "./actions";

export const metadata: Metadata = { title: "Blocks · Personal Data Service" };

export default async function BlocksPage() {
  const member = await requireMember();
  const blocks = await listBlocks(member.id);
  return (
    <>
      <h1>Blocked members</h1>
      <p className="lead">
        A block works both ways: neither of you can follow the other or send the other a message. The member is not
        told.
      </p>
      <BlockForm action={blockAction} />
      <section aria-labelledby="blocked-heading">
        <h2 id="blocked-heading">Blocked</h2>
        {blocks.length === 0 ? (
          <p className="muted">You have not blocked anyone.</p>
        ) : (
          <ul className="list">
            {blocks.map((block) => (
              <li key={block.id} data-testid="blocked-member">
                <span>
                  <strong>@{block.handle}</strong>
                  {block.display_name && block.display_name !== block.handle && (
                    <span className="muted"> · {block.display_name}</span>
                  )}
                  <span className="muted small"> · since {formatDateTime(block.created_at)}</span>
                </span>
                <form action={unblockAction}>
                  <input type="hidden" name="id" value={block.id} />
                  <SubmitButton variant="quiet">
                    Unblock<span className="visually-hidden"> @{block.handle}</span>
                  </SubmitButton>
                </form>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
