// A zone's offset at an instant, from the TZif file the system's time-zone database keeps for it (TZDIR, else
// /usr/share/zoneinfo), read once per zone; a zone without a readable file is asked of the platform's Intl.
// Not Intl first: the first Intl date format maps about 5 MiB of ICU's locale data into the process (and takes
// about 10 ms more at its first use), for a number the 2-4 KiB file answers (README.md, Libraries: Time zones).
import fs from 'node:fs';
import path from 'node:path';
import { tzOffset } from '@date-fns/tz';
import { readTzif, tableOffsetAt, type ZoneTable } from './tzif.js';

const DEFAULT_ZONE_DIRECTORY = '/usr/share/zoneinfo';
/** Larger than any zone's file (the largest is under 4 KiB): a bound on what one read takes. */
const MAX_ZONE_FILE_BYTES = 64 * 1024;
/** `Area/Location` names as the database spells them: no `..`, nothing absolute. */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;

/** The zone's table from its file under `directory`, or null when there is none this reader takes. */
export function loadZoneTable(timeZone: string, directory: string): ZoneTable | null {
  if (!ZONE_NAME.test(timeZone)) return null;
  try {
    const file = path.join(directory, timeZone);
    if (fs.statSync(file).size > MAX_ZONE_FILE_BYTES) return null;
    return readTzif(fs.readFileSync(file)) ?? null;
  } catch {
    return null;
  }
}

/** The directory the zone files are read from: the TZDIR the C library also reads, else the usual place. */
export function zoneDirectory(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.TZDIR?.trim();
  return configured === undefined || configured === '' ? DEFAULT_ZONE_DIRECTORY : configured;
}

/** Zones' offsets from the files under one directory, each file read once. */
export class ZoneOffsets {
  private readonly tables = new Map<string, ZoneTable | null>();

  constructor(private readonly directory: string) {}

  /** The offset of `timeZone` from UTC at an instant, in minutes (60 for BST). */
  minutesAt(timeZone: string, epochMs: number): number {
    let table = this.tables.get(timeZone);
    if (table === undefined) this.tables.set(timeZone, (table = loadZoneTable(timeZone, this.directory)));
    if (table === null) return tzOffset(timeZone, new Date(epochMs));
    return tableOffsetAt(table, Math.floor(epochMs / 1000)) / 60;
  }
}

let systemZones: ZoneOffsets | undefined;

/** The offset of `timeZone` from UTC at an instant, in minutes, from the system's time-zone database. */
export function zoneOffsetMinutes(timeZone: string, epochMs: number): number {
  systemZones ??= new ZoneOffsets(zoneDirectory());
  return systemZones.minutesAt(timeZone, epochMs);
}
