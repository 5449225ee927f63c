/**
 * /station: a staffed polling-station device (issue 14). Set up (open the station, store what
 * it needs), then look-up -> private ballot -> back to look-up, online or not. Ballots are
 * sealed and queued on the device and delivered exactly once (pwa/src/station/).
 */
import { useEffect, useState, useSyncExternalStore } from "react";
import { messages, type RollEntry, type StationChoice } from "@evoting/shared";
import { useOnline } from "../../hooks/use-online";
import { useLogout } from "../../auth/use-logout";
import { useNow } from "../../hooks/use-now";
import { formatClock } from "../../offline/freshness";
import { PageHeader } from "../../components/ui/PageHeader";
import { Button } from "../../components/ui/Button";
import { Card } from "../../components/ui/Card";
import { stationDb, type StationRefusal, type StoredPackage } from "../../station/station-db";
import { ballotFor, ballotOrderSeedOf, castStationBallot, closeStation, freshVoter, missingPhotos, refreshPackage } from "../../station/station-device";
import { stationSession } from "../../station/station-session";
import { flushStationQueue, watchQueue, watchRefusals, watchServed } from "../../station/station-sync";
import { StationSetup } from "./StationSetup";
import { StationLookup } from "./StationLookup";
import { StationBallot } from "./StationBallot";
import { StationRefusals } from "./StationRefusals";
import { useObservable } from "./use-observable";

/** Delivery is retried this often while ballots wait (besides the 'online' event). */
const RETRY_MS = 5_000;
const PHOTO_RECHECK_MS = 1_000;
const NONE: ReadonlySet<string> = new Set<string>();

export function StationPage() {
  const live = useSyncExternalStore(stationSession.subscribe, stationSession.get);
  const online = useOnline();
  const logout = useLogout();
  const deviceNow = useNow(15_000);
  const [pkg, setPkg] = useState<StoredPackage | null>(null);
  const [missing, setMissing] = useState<number | null>(null);
  const [voter, setVoter] = useState<RollEntry | null>(null);
  const [notice, setNotice] = useState("");
  const queued = useObservable<number>(() => watchQueue(), 0);
  const served = useObservable<ReadonlySet<string>>(() => watchServed(), NONE);
  const refusals = useObservable<StationRefusal[]>(() => watchRefusals(live?.station._id ?? ""), [], [live?.station._id]);

  // The stored package of the open station, and whether its photos are all cached.
  useEffect(() => {
    if (!live) return setPkg(null);
    // Opening stores the package and hands it over itself (onOpened); this reads it back after a
    // remount of the screen.
    let current = true;
    void stationDb()
      .packages.get(live.station._id)
      .then(async (stored) => {
        if (!current || !stored) return;
        setPkg(stored);
        setMissing(await missingPhotos(stored.data.positions));
      });
    return () => {
      current = false;
    };
  }, [live]);

  // The service worker stores a photo just after answering for it: look again until all are in.
  useEffect(() => {
    if (!pkg || missing === 0) return;
    const timer = setInterval(() => void missingPhotos(pkg.data.positions).then(setMissing), PHOTO_RECHECK_MS);
    return () => clearInterval(timer);
  }, [pkg, missing]);

  // Delivery starts at once, on 'online', when the device is looked at again and on a timer:
  // Firefox and Safari say nothing when only the server was out of reach.
  useEffect(() => {
    const kick = () => void flushStationQueue();
    const onVisible = () => {
      if (document.visibilityState === "visible") kick();
    };
    kick();
    window.addEventListener("online", kick);
    window.addEventListener("focus", kick);
    document.addEventListener("visibilitychange", onVisible);
    const timer = setInterval(kick, RETRY_MS);
    return () => {
      window.removeEventListener("online", kick);
      window.removeEventListener("focus", kick);
      document.removeEventListener("visibilitychange", onVisible);
      clearInterval(timer);
    };
  }, []);

  const refresh = async () => {
    const { stored, missing: left } = await refreshPackage();
    setPkg(stored);
    setMissing(left);
  };

  const submit = async (choices: StationChoice[]) => {
    if (!voter) return;
    const who = `${voter.name} (${voter.matricNumber})`;
    await castStationBallot(voter, choices);
    setVoter(null); // the ballot screen unmounts: its choices go with it
    setNotice(`Ballot taken for ${who}. ${navigator.onLine ? "" : messages.stationBallotQueued}`.trim());
  };

  const now = stationSession.now(deviceNow);
  const ready = Boolean(live && pkg && missing === 0);

  return (
    <div className="mx-auto max-w-4xl px-4 py-6">
      <PageHeader
        title="Polling Station"
        description={live ? live.station.name : "Set up this device as a polling station."}
        actions={
          <>
            {live && !voter && (
              <Button variant="secondary" onClick={() => void closeStation()}>
                Close station
              </Button>
            )}
            {/* Queued ballots stay on the device after a logout; the next officer to sign in here delivers them. */}
            <Button variant="secondary" onClick={logout}>
              Logout
            </Button>
          </>
        }
      />
      <div role="status" aria-live="polite" className="mb-4 space-y-1 text-sm">
        <p className={online ? "text-green-800" : "font-medium text-amber-900"}>{online ? "Online" : "Offline"}</p>
        {live && pkg && (
          <p data-testid="station-readiness" className={ready ? "font-semibold text-green-800" : "text-amber-900"}>
            {ready ? messages.stationReady : `Not ready for offline use: ${missing ?? "?"} candidate photos not stored yet`}
            {` · station data from ${formatClock(pkg.savedAt)}`}
          </p>
        )}
        <p data-testid="station-queue">{queued === 0 ? "Every ballot delivered." : `${queued} ballot${queued === 1 ? "" : "s"} waiting to be delivered.`}</p>
        {notice && !voter && <p data-testid="station-notice">{notice}</p>}
      </div>

      {!live ? (
        <StationSetup
          online={online}
          onOpened={({ stored, missing: left }) => {
            setPkg(stored);
            setMissing(left);
          }}
        />
      ) : !pkg ? (
        <Card className="px-5 py-8 text-center text-slate-600">Loading station data...</Card>
      ) : voter ? (
        <StationBallot
          voter={voter}
          positions={ballotFor(voter, pkg.data.positions, now, ballotOrderSeedOf(pkg.data))}
          alreadyVoted={pkg.data.positions.filter((p) => voter.voted.includes(p._id)).map((p) => p.title)}
          now={now}
          onSubmit={submit}
          onCancel={() => setVoter(null)}
        />
      ) : (
        <div className="space-y-6">
          {online && (
            <Button variant="secondary" onClick={() => void refresh().then(() => setNotice("Station data updated."))}>
              Update station data
            </Button>
          )}
          <StationLookup
            roll={pkg.data.roll}
            positions={pkg.data.positions}
            served={served}
            now={now}
            onStart={(v) => {
              setNotice("");
              void freshVoter(v).then(setVoter);
            }}
          />
          <StationRefusals refusals={refusals} />
        </div>
      )}
    </div>
  );
}
