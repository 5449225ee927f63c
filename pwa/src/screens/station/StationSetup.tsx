import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { messages } from "@evoting/shared";
import { errorMessage } from "../../api/client";
import { Button } from "../../components/ui/Button";
import { Card, CardHeader } from "../../components/ui/Card";
import { StateMessage } from "../../components/ui/Spinner";
import { stationApi } from "../../station/station-api";
import { openStation } from "../../station/station-device";
import { OfficerPasswordForm } from "./OfficerPasswordForm";

interface StationSetupProps {
  online: boolean;
  /** A station the server just ended on this device (revoked, officer unassigned): never offered again from a stale list. */
  ended: string | null;
  onOpened: (opened: Awaited<ReturnType<typeof openStation>>) => void;
}

/** Turns this device into one of the officer's stations: their password again, then session, key, package and photos. */
export function StationSetup({ online, ended, onOpened }: StationSetupProps) {
  // Always asked afresh: a station revoked or an officer unassigned since must not be offered.
  const mine = useQuery({ queryKey: ["station", "mine"], queryFn: stationApi.mine, enabled: online, refetchOnMount: "always", staleTime: 0 });
  const [choosing, setChoosing] = useState<{ _id: string; name: string } | null>(null);
  const stations = (mine.data ?? []).filter((s) => s._id !== ended);

  const open = async (password: string) => {
    if (!choosing) return;
    try {
      onOpened(await openStation(choosing._id, password));
    } catch (e) {
      throw new Error(errorMessage(e, messages.stationOpenFailed), { cause: e });
    }
  };

  return (
    <Card>
      <CardHeader title="Set up this station" description="Choose the polling station this device serves. It downloads what it needs to work without the network." />
      {!online ? (
        <StateMessage>{messages.stationOpenFailed}</StateMessage>
      ) : choosing ? (
        <OfficerPasswordForm title={`Open ${choosing.name}`} submitLabel="Open station" busyLabel="Opening..." onSubmit={open}>
          <p className="text-sm text-slate-700">
            Confirm it is you to open <span className="font-medium">{choosing.name}</span> on this device. The same password unlocks it after a reload and takes the device back from each voter.
          </p>
          <Button variant="secondary" onClick={() => setChoosing(null)}>
            Back
          </Button>
        </OfficerPasswordForm>
      ) : mine.isPending ? (
        <StateMessage busy>Loading your stations...</StateMessage>
      ) : mine.isError ? (
        <StateMessage>{messages.loadStationsFailed}</StateMessage>
      ) : stations.length === 0 ? (
        <StateMessage>This device is not a polling station: you are not an officer of any polling station.</StateMessage>
      ) : (
        <ul className="divide-y divide-slate-100">
          {stations.map((s) => (
            <li key={s._id} className="flex items-center justify-between gap-3 px-5 py-3">
              <span className="font-medium text-slate-900">{s.name}</span>
              <Button onClick={() => setChoosing(s)}>{`Open ${s.name}`}</Button>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
