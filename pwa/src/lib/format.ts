/** Dates shown in the viewer's own time zone, with the zone named so nobody guesses. */

/**
 * Made on first use, not when the module loads: a page's first Intl date format loads the
 * locale's calendar and zone names (~20 ms, ~80 ms on a slow phone), which should not join
 * the evaluation of every module that imports this one in one long task.
 */
export function onFirstUse<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

const dateTime = onFirstUse(
  () =>
    new Intl.DateTimeFormat(undefined, {
      weekday: "short",
      day: "numeric",
      month: "short",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      timeZoneName: "short",
    }),
);

const shortDateTime = onFirstUse(
  () =>
    new Intl.DateTimeFormat(undefined, {
      day: "numeric",
      month: "short",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
    }),
);

/** e.g. "Fri, 4 Jul 2025, 11:00 GMT+1". */
export const formatDateTime = (iso: string | number | Date) => dateTime().format(new Date(iso));

/** Table cells: compact, zone named once in the table caption instead. */
export const formatShortDateTime = (iso: string | number | Date) => shortDateTime().format(new Date(iso));

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
