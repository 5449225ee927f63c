/** Dates shown in the viewer's own time zone, with the zone named so nobody guesses. */

/**
 * Made on first use, not when the module loads: a page's first Intl object is costly (see
 * below) and should not join the evaluation of every module that imports this one.
 */
export function onFirstUse<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const twoDigits = (n: number) => String(n).padStart(2, "0");

/*
 * Dates and times are put together from the Date's own fields, not with Intl: a page's first
 * Intl call builds the locale's calendar and zone data in one uninterruptible task (long on a
 * slow phone; decision 0018 has the figures), and the ballot shows times on its first render. The
 * copy is English, so one fixed format serves everyone, and every device shows the same text.
 */

/** The zone's offset from UTC at that instant, as times name it: "GMT+1", "GMT-3:30", "GMT". */
export function zoneOffsetName(at: string | number | Date = Date.now()): string {
  const minutes = -new Date(at).getTimezoneOffset();
  if (!minutes) return "GMT";
  const abs = Math.abs(minutes);
  return `GMT${minutes > 0 ? "+" : "-"}${Math.floor(abs / 60)}${abs % 60 ? `:${twoDigits(abs % 60)}` : ""}`;
}

/** "4 Jul 2025, 11:00" on the viewer's wall clock. */
function wallClock(date: Date): string {
  return `${date.getDate()} ${MONTHS[date.getMonth()]} ${date.getFullYear()}, ${twoDigits(date.getHours())}:${twoDigits(date.getMinutes())}`;
}

/** e.g. "Fri, 4 Jul 2025, 11:00 GMT+1"; "" for a value that is not a date. */
export function formatDateTime(iso: string | number | Date): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return `${WEEKDAYS[date.getDay()]}, ${wallClock(date)} ${zoneOffsetName(date)}`;
}

/** "21:51" on the viewer's wall clock, for a time on the day it is read; "" for a value that is not a date. */
export function formatTime(iso: string | number | Date): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : `${twoDigits(date.getHours())}:${twoDigits(date.getMinutes())}`;
}

/** Table cells: compact, zone named once in the table caption instead. */
export function formatShortDateTime(iso: string | number | Date): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : wallClock(date);
}

/** The viewer's IANA time zone, e.g. "Africa/Lagos". */
const timeZone = onFirstUse(() => Intl.DateTimeFormat().resolvedOptions().timeZone || "local time");
export const localTimeZone = () => timeZone();

/** A `datetime-local` value (the viewer's wall clock) as an ISO UTC instant. */
export function localInputToIso(value: string): string {
  if (!value) return "";
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? "" : date.toISOString();
}

/** An instant as a `datetime-local` value on the viewer's wall clock (the inverse of localInputToIso). */
export function isoToLocalInput(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

export const formatInteger = (n: number) => new Intl.NumberFormat().format(n);
