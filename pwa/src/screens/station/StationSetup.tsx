import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { messages } from "@evoting/shared";
import { errorMessage } from "../../api/client";
import { Button } from "../../components/ui/Button";
import { Card, CardHeader } from "../../components/ui/Card";
import { StateMessage } from "../../components/ui/Spinner";
import { stationApi } from "../../station/station-api";
import { openStation } from "../../station/station-device";

/** Turns this device into one of the officer's stations: session, key, package and photos. */
export function StationSetup({ online, onOpened }: { online: boolean; onOpened: (opened: Awaited<ReturnType<typeof openStation>>) => void }) {
  const mine = useQuery({ queryKey: ["station", "mine"], queryFn: stationApi.mine, enabled: online });
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const open = async (stationId: string) => {
    setBusy(stationId);
    setError(null);
    try {
      onOpened(await openStation(stationId));
    } catch (e) {
      setError(errorMessage(e, messages.stationOpenFailed));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card>
      <CardHeader title="Set up this station" description="Choose the polling station this device serves. It downloads what it needs to work without the network." />
      {!online ? (
        <StateMessage>{messages.stationOpenFailed}</StateMessage>
      ) : mine.isPending ? (
        <StateMessage busy>Loading your stations...</StateMessage>
      ) : mine.isError ? (
        <StateMessage>{messages.loadStationsFailed}</StateMessage>
      ) : mine.data.length === 0 ? (
        <StateMessage>You are not an officer of any polling station.</StateMessage>
      ) : (
        <ul className="divide-y divide-slate-100">
          {mine.data.map((s) => (
            <li key={s._id} className="flex items-center justify-between gap-3 px-5 py-3">
              <span className="font-medium text-slate-900">{s.name}</span>
              <Button onClick={() => void open(s._id)} disabled={busy !== null}>
                {busy === s._id ? "Opening..." : `Open ${s.name}`}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <div aria-live="assertive">{error && <p className="px-5 pb-4 text-sm font-medium text-red-700">{error}</p>}</div>
    </Card>
  );
}
