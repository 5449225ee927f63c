/**
 * /station: a staffed polling-station device. Set up (the officer's password, then
 * the station and what it needs), then look-up -> private ballot -> the officer takes the
 * device back -> look-up, online or not. Ballots are sealed and queued on the device and
 * delivered exactly once (pwa/src/station/); a reload locks the station until the officer's
 * password unlocks it again, offline too.
 */
import { useEffect, useState, useSyncExternalStore } from "react";
import { Link } from "@tanstack/react-router";
import { messages, type RollEntry, type StationChoice } from "@evoting/shared";
import { session } from "../../auth/session";
import { useLogout } from "../../data/use-logout";
import { useSession } from "../../auth/use-session";
import { useNow } from "../../hooks/use-now";
import { formatClock } from "../../offline/freshness";
import { PageHeader } from "../../components/ui/PageHeader";
import { Button, buttonClass } from "../../components/ui/Button";
import { Card, CardHeader } from "../../components/ui/Card";
import { stationDb, type QueuedBallot, type StationRefusal, type StoredPackage } from "../../station/station-db";
import { ballotFor, ballotOrderSeedOf, castStationBallot, closeStation, freshVoter, missingPhotos, refreshPackage } from "../../station/station-device";
import { stationSession, WrongPasswordError } from "../../station/station-session";
import { checkLink, stationLink } from "../../station/station-link";
import { flushStationQueue, watchQueue, watchRefusals, watchServed } from "../../station/station-sync";
import { StationSetup } from "./StationSetup";
import { StationLookup } from "./StationLookup";
import { StationBallot, type BoothTracker } from "./StationBallot";
import { BoothTrackers } from "./BoothTrackers";
import { verifiableReady } from "./verifiable-ready";
import { StationRefusals } from "./StationRefusals";
import { StationQueue } from "./StationQueue";
import { OfficerPasswordForm } from "./OfficerPasswordForm";
import { useObservable } from "./use-observable";

/** Delivery is retried, and the server asked whether it answers, this often (besides the 'online' event). */
const RETRY_MS = 5_000;
const PHOTO_RECHECK_MS = 1_000;
const NONE: ReadonlySet<string> = new Set<string>();
const NO_QUEUE: QueuedBallot[] = [];

/** Where the device is between voters: the officer's look-up, a voter's ballot, or waiting for the officer. */
type Stage =
  | { kind: "lookup" }
  | { kind: "ballot"; voter: RollEntry }
  // A verifiable position's trackers, for the voter to note before handing back: gone at the take-back.
  | { kind: "handback"; voter: RollEntry; ballotId: string | null; trackers: BoothTracker[] };

const wrongPassword = (e: unknown) => (e instanceof WrongPasswordError ? new Error(`Wrong password. ${stationSession.triesLeft()} tries left before the station must be opened again online.`) : e);

/** Why the station is not ready for offline use yet. */
function notReadyReason(missing: number | null, canEncrypt: boolean | null): string {
  if (missing !== 0) return `Not ready for offline use: ${missing ?? "?"} candidate photos not stored yet`;
  if (canEncrypt === false) return "Not ready for offline use: this device could not load the encryption of verifiable ballots; reload the page while online";
  return "Not ready for offline use: loading the encryption of verifiable ballots";
}

export function StationPage() {
  useSyncExternalStore(stationSession.subscribe, stationSession.version);
  const live = stationSession.get();
  const locked = stationSession.locked();
  const link = useSyncExternalStore(stationLink.subscribe, stationLink.get);
  const logout = useLogout();
  const deviceNow = useNow(15_000);
  const [pkg, setPkg] = useState<StoredPackage | null>(null);
  const [missing, setMissing] = useState<number | null>(null);
  /** Whether a ballot for each locked verifiable position can be encrypted here (null: being checked). */
  const [canEncrypt, setCanEncrypt] = useState<boolean | null>(null);
  const [stage, setStage] = useState<Stage>({ kind: "lookup" });
  const [notice, setNotice] = useState<{ text: string; ballotId: string | null } | null>(null);
  const queue = useObservable<QueuedBallot[]>(() => watchQueue(), NO_QUEUE);
  const served = useObservable<ReadonlySet<string>>(() => watchServed(), NONE);
  const refusals = useObservable<StationRefusal[]>(() => watchRefusals(), []);
  const me = session.user()?.matricNumber;
  // A station token reaches nothing but this page; an officer's own sign-in also opens the archives.
  const stationDevice = useSession()?.stationDevice === true;

  // Another person signed in on this device (a shift change, or after a sign-out): the station
  // stays locked to the officer who opened it.
  useEffect(() => {
    if (live && live.officer !== me) stationSession.lock();
  }, [live, me]);

  // The stored package of the open station, and whether its photos are all cached.
  useEffect(() => {
    if (!live) return setPkg(null);
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

  // A verifiable position's ballot is encrypted here: the worker must have run once while online.
  useEffect(() => {
    if (!pkg) return setCanEncrypt(null);
    let current = true;
    setCanEncrypt(null);
    void verifiableReady(pkg.data.positions).then((ok) => {
      if (current) setCanEncrypt(ok);
    });
    return () => {
      current = false;
    };
  }, [pkg]);

  // The service worker stores a photo just after answering for it: look again until all are in.
  useEffect(() => {
    if (!pkg || missing === 0) return;
    const timer = setInterval(() => void missingPhotos(pkg.data.positions).then(setMissing), PHOTO_RECHECK_MS);
    return () => clearInterval(timer);
  }, [pkg, missing]);

  // Delivery starts at once, on 'online', when the device is looked at again and on a timer:
  // Firefox and Safari say nothing when only the server was out of reach.
  useEffect(() => {
    const kick = () => {
      void checkLink();
      void flushStationQueue();
    };
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

  // While a voter holds the device, Back stays on the ballot: the officer takes it back with their password.
  const voterHolds = stage.kind !== "lookup";
  useEffect(() => {
    if (!voterHolds) return;
    history.pushState({ station: "ballot" }, "", location.href);
    const stay = () => history.pushState({ station: "ballot" }, "", location.href);
    window.addEventListener("popstate", stay);
    return () => window.removeEventListener("popstate", stay);
  }, [voterHolds]);

  const refresh = async () => {
    const { stored, missing: left } = await refreshPackage();
    setPkg(stored);
    setMissing(left);
  };

  const submit = async (choices: StationChoice[], trackers: BoothTracker[]) => {
    if (stage.kind !== "ballot") return;
    const ballotId = await castStationBallot(stage.voter, choices);
    setStage({ kind: "handback", voter: stage.voter, ballotId, trackers }); // the ballot unmounts: its choices go with it
  };

  const takeBack = async (password: string) => {
    if (stage.kind !== "handback") return;
    try {
      const raw = await stationSession.check(password);
      raw.fill(0);
    } catch (e) {
      throw wrongPassword(e);
    }
    const who = `${stage.voter.name} (${stage.voter.matricNumber})`;
    setNotice(stage.ballotId ? { text: `Ballot taken for ${who}.`, ballotId: stage.ballotId } : { text: `Ballot cancelled for ${who}: nothing was recorded.`, ballotId: null });
    setStage({ kind: "lookup" });
  };

  const leave = () => {
    stationSession.lock();
    logout();
  };

  const now = stationSession.now(deviceNow);
  const ready = Boolean(live && pkg && missing === 0 && canEncrypt);
  const stillQueued = notice?.ballotId ? queue.some((q) => q.ballotId === notice.ballotId) : false;

  if (live && pkg && stage.kind === "ballot") {
    // The voter's screen: the ballot and nothing else (no look-up, no logout, no other voter).
    return (
      <div className="mx-auto max-w-4xl px-4 py-6">
        <StationBallot
          voter={stage.voter}
          positions={ballotFor(stage.voter, pkg.data.positions, now, ballotOrderSeedOf(pkg.data))}
          alreadyVoted={pkg.data.positions.filter((p) => stage.voter.voted.includes(p._id)).map((p) => p.title)}
          now={now}
          credentialLists={pkg.data.credentialLists}
          onSubmit={submit}
          onCancel={() => setStage({ kind: "handback", voter: stage.voter, ballotId: null, trackers: [] })}
        />
      </div>
    );
  }
  if (live && stage.kind === "handback") {
    return (
      <div className="mx-auto max-w-xl px-4 py-6">
        <Card>
          <CardHeader title={stage.ballotId ? "Ballot submitted" : "Ballot cancelled"} description="Please hand the device back to the officer." />
          {stage.trackers.length > 0 && <BoothTrackers trackers={stage.trackers} />}
          <OfficerPasswordForm title="Take the device back" submitLabel="Take the device back" busyLabel="Checking..." onSubmit={takeBack} />
        </Card>
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-4xl px-4 py-6">
      <PageHeader
        title="Polling Station"
        description={live ? live.station.name : locked ? `${locked.station.name} (locked)` : "Set up this device as a polling station."}
        actions={
          <>
            {!stationDevice && (
              <Link to="/elections" className={buttonClass("secondary")}>
                Past Elections
              </Link>
            )}
            {(live || locked) && (
              <Button variant="secondary" onClick={() => void closeStation()}>
                Close station
              </Button>
            )}
            {/* Queued ballots stay on the device after a logout; an officer of their station delivers them. */}
            <Button variant="secondary" onClick={leave}>
              Logout
            </Button>
          </>
        }
      />
      <div role="status" aria-live="polite" className="mb-4 space-y-1 text-sm">
        <p data-testid="station-connection" className={link.reachable ? "text-green-800" : "font-medium text-amber-900"}>
          {link.reachable === null ? "Checking the connection..." : link.reachable ? "Online" : "Offline"}
        </p>
        {link.ended && !live && <p className="font-medium text-red-800">This device is no longer a polling station: {link.ended.message}</p>}
        {live && pkg && (
          <p data-testid="station-readiness" className={ready ? "font-semibold text-green-800" : "text-amber-900"}>
            {ready ? messages.stationReady : notReadyReason(missing, canEncrypt)}
            {` · station data from ${formatClock(pkg.savedAt)}`}
          </p>
        )}
        <p data-testid="station-queue">{queue.length === 0 ? "Every ballot delivered." : `${queue.length} ballot${queue.length === 1 ? "" : "s"} waiting to be delivered.`}</p>
        {notice && (
          <p data-testid="station-notice">
            {notice.text}
            {stillQueued && ` ${messages.stationBallotQueued}`}
          </p>
        )}
      </div>

      {!live && locked && locked.officer === me ? (
        <Card>
          <CardHeader title="Station locked" description={`${locked.station.name} is open on this device. Enter your password to go on; this works without the network.`} />
          <OfficerPasswordForm
            title="Unlock the station"
            submitLabel="Unlock"
            busyLabel="Unlocking..."
            onSubmit={(password) => stationSession.unlock(password).catch((e: unknown) => Promise.reject(wrongPassword(e)))}
          />
        </Card>
      ) : !live ? (
        <StationSetup
          online={link.reachable !== false}
          ended={link.ended?.stationId ?? null}
          onOpened={({ stored, missing: left }) => {
            setPkg(stored);
            setMissing(left);
          }}
        />
      ) : !pkg ? (
        <Card className="px-5 py-8 text-center text-slate-600">Loading station data...</Card>
      ) : (
        <div className="space-y-6">
          {link.reachable && (
            <Button variant="secondary" onClick={() => void refresh().then(() => setNotice({ text: "Station data updated.", ballotId: null }))}>
              Update station data
            </Button>
          )}
          <StationLookup
            roll={pkg.data.roll}
            positions={pkg.data.positions}
            served={served}
            now={now}
            onStart={(v) => {
              setNotice(null);
              void freshVoter(v).then((voter) => setStage({ kind: "ballot", voter }));
            }}
          />
        </div>
      )}
      <div className="mt-6 space-y-6">
        <StationQueue queue={queue} />
        <StationRefusals refusals={refusals} />
      </div>
    </div>
  );
}
