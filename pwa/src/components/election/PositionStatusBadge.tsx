import type { PositionStatus } from "@evoting/shared";
import { Badge, type BadgeTone } from "../ui/Badge";

/** upcoming blue, active green, ended gray (docs/product.md, Rules). */
const tone: Record<PositionStatus, BadgeTone> = { upcoming: "blue", active: "green", ended: "gray" };

export function PositionStatusBadge({ status }: { status: PositionStatus }) {
  return (
    <Badge tone={tone[status]} className="capitalize">
      <span data-status={status}>{status}</span>
    </Badge>
  );
}
