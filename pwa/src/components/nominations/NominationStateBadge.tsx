import { nominationStateLabel, type Nomination, type NominationState } from "@evoting/shared";
import { Badge, type BadgeTone } from "../ui/Badge";

const tones: Record<NominationState, BadgeTone> = { awaiting: "amber", submitted: "blue", approved: "green", rejected: "red", withdrawn: "gray" };

/** A nomination's state as the applicant and the committee read it. */
export function NominationStateBadge({ nomination }: { nomination: Pick<Nomination, "state" | "proposer" | "seconder"> }) {
  return <Badge tone={tones[nomination.state]}>{nominationStateLabel(nomination)}</Badge>;
}
