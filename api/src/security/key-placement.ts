/**
 * Where the ballot key lives relative to the database. Sealed choices are only as
 * secret as the key: a key file in the database's folder travels with every copy of that
 * folder (a backup job, a disk image), and the copy then unseals every voter's choice.
 * In production the key belongs in BALLOT_KEY or in a file outside the database's folder.
 */
import { realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";

const real = (path: string) => {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
};

const isInside = (path: string, folder: string) => {
  const rel = relative(folder, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
};

/**
 * The warning to print at start, or null. `keyFile` is null when the key comes from
 * BALLOT_KEY; a database in the temp folder (tests, benchmarks, a demo) is not warned about.
 * `tempFolder` is the OS's unless a test names another.
 */
export function keyPlacementWarning(
  keyFile: string | null,
  databaseFilePath: string | null,
  tempFolder: string = tmpdir(),
): string | null {
  if (!keyFile || !databaseFilePath) return null;
  const dbFolder = real(dirname(databaseFilePath));
  if (isInside(dbFolder, real(tempFolder))) return null;
  if (!isInside(real(dirname(keyFile)), dbFolder)) return null;
  return (
    `Warning: the ballot key ${keyFile} lives beside the database ${databaseFilePath}. ` +
    "Anyone who copies that folder can unseal every voter's choice. In production set BALLOT_KEY " +
    "or BALLOT_KEY_FILE to a place outside the database's folder (README, Threat model)."
  );
}
