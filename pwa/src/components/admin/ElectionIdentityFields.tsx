import type { ChangeEvent } from "react";
import { localTimeZone } from "../../lib/format";
import { TextField } from "../ui/Field";

type Name = "title" | "subtitle" | "startTime" | "endTime";
type FieldProps = { name: string; value: string; onChange: (e: ChangeEvent<HTMLInputElement>) => void; error?: string };

/** An election's title, subtitle and window (Election Settings, Start a new election): typed in local time, stored in UTC. */
export function ElectionIdentityFields({ field }: { field: (name: Name) => FieldProps }) {
  const zoneHint = `Your local time (${localTimeZone()}); stored in UTC`;
  return (
    <>
      <TextField label="Election Title" autoComplete="off" {...field("title")} />
      <TextField label="Subtitle" autoComplete="off" {...field("subtitle")} />
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField label="Start Time" type="datetime-local" hint={zoneHint} {...field("startTime")} />
        <TextField label="End Time" type="datetime-local" hint={zoneHint} {...field("endTime")} />
      </div>
    </>
  );
}
