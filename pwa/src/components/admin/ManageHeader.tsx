import { useNavigate } from "@tanstack/react-router";
import { PageHeader } from "../ui/PageHeader";
import { Button } from "../ui/Button";
import { Icon } from "../ui/Icon";
import { BackToAdminButton } from "./BackToAdminButton";
import { useCanWriteAdmin } from "../../auth/use-session";

interface ManageHeaderProps {
  title: string;
  description: string;
  createLabel: string;
  createTo: "/admin/candidates" | "/admin/positions";
}

/** A manage page's heading, with the way back to the admin panel and on to the matching create page. */
export function ManageHeader({ title, description, createLabel, createTo }: ManageHeaderProps) {
  const navigate = useNavigate();
  const canWrite = useCanWriteAdmin(); // observers see no create button
  return (
    <PageHeader
      title={title}
      description={description}
      actions={
        <>
          <BackToAdminButton />
          {canWrite && (
            <Button onClick={() => void navigate({ to: createTo })}>
              <Icon name="plus" className="size-4" />
              {createLabel}
            </Button>
          )}
        </>
      }
    />
  );
}
