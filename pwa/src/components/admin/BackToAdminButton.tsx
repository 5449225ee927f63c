import { useNavigate } from "@tanstack/react-router";
import { Button } from "../ui/Button";
import { Icon } from "../ui/Icon";

export function BackToAdminButton() {
  const navigate = useNavigate();
  return (
    <Button variant="secondary" onClick={() => void navigate({ to: "/admin" })}>
      <Icon name="back" className="size-4" />
      Back to Admin Panel
    </Button>
  );
}
