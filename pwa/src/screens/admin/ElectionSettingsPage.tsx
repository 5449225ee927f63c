import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { electionSettingsSchema, messages, type BallotOrder, type ElectionSettings, type ResultsVisibility, type UnopposedMode } from "@evoting/shared";
import { electionApi } from "../../api/election";
import { electionQuery, invalidateSettings } from "../../data/election";
import { notifyError, notifySuccess } from "../../lib/notify";
import { fieldErrors } from "../../lib/form-errors";
import { useFormFields } from "../../hooks/use-form-fields";
import { isoToLocalInput, localInputToIso, localTimeZone } from "../../lib/format";
import { useOnline } from "../../hooks/use-online";
import { PageHeader } from "../../components/ui/PageHeader";
import { Card } from "../../components/ui/Card";
import { Button } from "../../components/ui/Button";
import { FieldShell, TextField, inputClass } from "../../components/ui/Field";
import { StateMessage } from "../../components/ui/Spinner";
import { NeedsNetwork } from "../../components/NeedsNetwork";
import { BackToAdminButton } from "../../components/admin/BackToAdminButton";
import { ElectionIdentityFields } from "../../components/admin/ElectionIdentityFields";

type Field = "title" | "subtitle" | "startTime" | "endTime" | "ballotBatch" | "nominationsStart" | "nominationsEnd";

const textValues = (s: ElectionSettings) => ({
  title: s.title,
  subtitle: s.subtitle,
  startTime: isoToLocalInput(s.startTime),
  endTime: isoToLocalInput(s.endTime),
  ballotBatch: String(s.ballotBatch),
  nominationsStart: s.nominationsStart ? isoToLocalInput(s.nominationsStart) : "",
  nominationsEnd: s.nominationsEnd ? isoToLocalInput(s.nominationsEnd) : "",
});

/** A typed number, or NaN for anything else (blank too), which the schema refuses with its message. */
const wholeNumber = (text: string) => (/^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN);

/** A blank nomination time is no window (null); the API refuses one set without the other. */
const optionalInstant = (value: string) => (value ? localInputToIso(value) : null);

/** /admin/election: the election's title, window, nomination window, results visibility, ballot order, unopposed positions and ballot batch. */
export function ElectionSettingsPage() {
  const settings = useQuery(electionQuery());
  return (
    <div className="mx-auto max-w-2xl">
      <PageHeader title="Election Settings" description="What every page shows about the election, and how results and ballots behave." actions={<BackToAdminButton />} />
      <Card>
        {settings.isPending ? (
          <StateMessage busy>Loading election settings...</StateMessage>
        ) : settings.isError ? (
          <StateMessage>Could not load the election settings.</StateMessage>
        ) : (
          <SettingsForm initial={settings.data} />
        )}
      </Card>
    </div>
  );
}

/**
 * The form starts from the loaded settings (never from blanks filled in a render later), so
 * nothing typed or chosen in its first moments is overwritten.
 */
function SettingsForm({ initial }: { initial: ElectionSettings }) {
  const online = useOnline();
  const client = useQueryClient();
  const { values, setErrors, field } = useFormFields(textValues(initial));
  const [resultsVisibility, setVisibility] = useState<ResultsVisibility>(initial.resultsVisibility);
  const [ballotOrder, setOrder] = useState<BallotOrder>(initial.ballotOrder);
  const [unopposed, setUnopposed] = useState<UnopposedMode>(initial.unopposed);

  const save = useMutation({
    mutationFn: electionApi.saveElection,
    onSuccess: (saved) => {
      client.setQueryData(electionQuery().queryKey, (held) => ({ ...held, ...saved }));
      notifySuccess(messages.electionSettingsSaved);
      void invalidateSettings(client);
    },
    onError: (e) => notifyError(e, messages.electionSettingsFailed),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // datetime-local holds the admin's wall-clock time; the API stores UTC instants.
    const parsed = electionSettingsSchema.safeParse({
      ...values,
      startTime: localInputToIso(values.startTime),
      endTime: localInputToIso(values.endTime),
      ballotBatch: wholeNumber(values.ballotBatch),
      nominationsStart: optionalInstant(values.nominationsStart),
      nominationsEnd: optionalInstant(values.nominationsEnd),
      resultsVisibility,
      ballotOrder,
      unopposed,
    });
    if (!parsed.success) {
      setErrors(fieldErrors<Field>(parsed.error));
      return;
    }
    setErrors({});
    save.mutate(parsed.data);
  };

  const zoneHint = `Your local time (${localTimeZone()}); stored in UTC`;
  return (
    <form noValidate onSubmit={submit} className="space-y-5 p-6">
      <NeedsNetwork online={online} />
      <ElectionIdentityFields field={field} />
      <fieldset className="space-y-3">
        <legend className="text-sm font-semibold text-slate-900">Nominations</legend>
        <p className="text-sm text-slate-600">While open, any voter can apply to stand from their home screen. Leave both empty for no nominations.</p>
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField label="Nominations Open" type="datetime-local" hint={zoneHint} {...field("nominationsStart")} />
          <TextField label="Nominations Close" type="datetime-local" hint={zoneHint} {...field("nominationsEnd")} />
        </div>
      </fieldset>
      <SettingSelect
        label="Results Visibility"
        hint="Admins and observers always see live results."
        value={resultsVisibility}
        onChange={setVisibility}
        options={[
          ["live", "Live: everyone sees results as votes arrive"],
          ["after-close", "After close: voters see results when voting closes"],
        ]}
      />
      <SettingSelect
        label="Ballot Order"
        hint="Random gives each voter their own fixed order, so being listed first gains nothing."
        value={ballotOrder}
        onChange={setOrder}
        options={[
          ["fixed", "Fixed: the same order for everyone"],
          ["random", "Random: each voter's own order"],
        ]}
      />
      <SettingSelect
        label="Unopposed Positions"
        hint="A position with exactly one candidate. Yes or No: the candidate is elected only with more Yes than No. Fixed once votes are cast."
        value={unopposed}
        onChange={setUnopposed}
        options={[
          ["single", "Vote for the candidate (as usual)"],
          ["yes-no", "Yes or No"],
        ]}
      />
      <TextField
        label="Ballot Batch"
        type="number"
        inputMode="numeric"
        min={1}
        step={1}
        hint="Votes reach the results in groups of this many per position, so no one can match a voter to a choice. 1 shows each vote at once."
        {...field("ballotBatch")}
      />
      <Button type="submit" size="lg" className="w-full sm:w-auto" disabled={save.isPending || !online}>
        {save.isPending ? "Saving..." : "Save Settings"}
      </Button>
    </form>
  );
}

interface SettingSelectProps<T extends string> {
  label: string;
  hint: string;
  value: T;
  onChange: (value: T) => void;
  /** [value, what the admin reads] */
  options: [T, string][];
}

/** One labelled choice of a setting: a native select, so keyboards and screen readers know it. */
function SettingSelect<T extends string>({ label, hint, value, onChange, options }: SettingSelectProps<T>) {
  return (
    <FieldShell label={label} hint={hint}>
      {({ id, describedBy }) => (
        <select id={id} aria-describedby={describedBy} className={inputClass} value={value} onChange={(e) => onChange(e.target.value as T)}>
          {options.map(([v, text]) => (
            <option key={v} value={v}>
              {text}
            </option>
          ))}
        </select>
      )}
    </FieldShell>
  );
}
