import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tzOffset } from '@date-fns/tz';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parsePosixRule, posixOffsetAt } from '../src/zones/posix-rule.js';
import { readTzif, tableOffsetAt, type ZoneTable } from '../src/zones/tzif.js';
import { loadZoneTable, zoneDirectory, ZoneOffsets } from '../src/zones/zone-offsets.js';

// A zone's offset from its TZif file (zones/), held to the platform's Intl on the zones the fixtures hold.

const ZONEINFO = fileURLToPath(new URL('./fixtures/zoneinfo', import.meta.url));
const HOUR = 3600;
const YEAR_1970 = 0;
const YEAR_2045 = Date.UTC(2045, 0, 1) / 1000;

/** Zones whose rules no tz release since 2022 changed after 1970 (so Node's ICU and the fixtures agree). */
const STABLE_ZONES = [
  'Europe/London',
  'Europe/Helsinki',
  'Australia/Sydney',
  'America/New_York',
  'Asia/Kolkata',
  'Pacific/Chatham',
  'Asia/Jerusalem',
  'Asia/Tehran',
];

function table(zone: string): ZoneTable {
  const loaded = loadZoneTable(zone, ZONEINFO);
  if (loaded === null) throw new Error(`no table for ${zone}`);
  return loaded;
}

const intlMinutes = (zone: string, seconds: number): number => tzOffset(zone, new Date(seconds * 1000));

describe('a zone’s offset from its TZif file', () => {
  it.each(STABLE_ZONES)(
    '%s: as Intl says, every 6 hours and a second either side of every change, 1970-2045',
    (zone) => {
      const zoneTable = table(zone);
      const instants: number[] = [];
      for (let at = YEAR_1970; at < YEAR_2045; at += 6 * HOUR) instants.push(at);
      for (const change of zoneTable.transitions.filter((at) => at >= YEAR_1970 && at < YEAR_2045))
        instants.push(change - 1, change, change + 1);
      // Past the file's last transition the footer rule answers: its changes too, to 2045.
      const lastChange = Math.max(YEAR_1970, zoneTable.transitions.at(-1) ?? YEAR_1970);
      let before = intlMinutes(zone, lastChange - (lastChange % HOUR));
      for (let at = lastChange - (lastChange % HOUR) + HOUR; at < YEAR_2045; at += HOUR) {
        const now = intlMinutes(zone, at);
        if (now !== before) instants.push(at - 1, at);
        before = now;
      }
      const wrong = instants.filter((at) => tableOffsetAt(zoneTable, at) / 60 !== intlMinutes(zone, at));
      expect(wrong.map((at) => new Date(at * 1000).toISOString())).toEqual([]);
    },
  );

  it.each(STABLE_ZONES.filter((zone) => zone !== 'Asia/Kolkata' && zone !== 'Asia/Tehran'))(
    '%s: the footer rule gives what the transitions give, 2014-2037',
    (zone) => {
      const zoneTable = table(zone);
      const rule = zoneTable.after!;
      expect(rule.daylight).toBeDefined();
      const from = Date.UTC(2014, 0, 1) / 1000;
      const until = Math.min(Date.UTC(2037, 0, 1) / 1000, zoneTable.transitions.at(-1)!);
      const checked: number[] = [];
      for (const change of zoneTable.transitions.filter((at) => at >= from && at < until))
        checked.push(change - 1, change, change + 1, change + 30 * 86_400);
      expect(checked.length).toBeGreaterThan(0);
      const wrong = checked.filter((at) => posixOffsetAt(rule, at) !== tableOffsetAt(zoneTable, at));
      expect(wrong).toEqual([]);
    },
  );
});

describe('the footer rule (POSIX TZ strings with RFC 8536’s extensions)', () => {
  const at = (iso: string) => Date.parse(iso) / 1000;

  it('reads London’s, Helsinki’s and Sydney’s and changes at the instants they name', () => {
    const london = parsePosixRule('GMT0BST,M3.5.0/1,M10.5.0')!;
    expect(posixOffsetAt(london, at('2026-03-29T00:59:59Z'))).toBe(0);
    expect(posixOffsetAt(london, at('2026-03-29T01:00:00Z'))).toBe(3600);
    expect(posixOffsetAt(london, at('2026-10-25T00:59:59Z'))).toBe(3600);
    expect(posixOffsetAt(london, at('2026-10-25T01:00:00Z'))).toBe(0);
    const helsinki = parsePosixRule('EET-2EEST,M3.5.0/3,M10.5.0/4')!;
    expect(posixOffsetAt(helsinki, at('2026-03-29T00:59:59Z'))).toBe(7200);
    expect(posixOffsetAt(helsinki, at('2026-03-29T01:00:00Z'))).toBe(10_800);
    const sydney = parsePosixRule('AEST-10AEDT,M10.1.0,M4.1.0/3')!;
    expect(posixOffsetAt(sydney, at('2026-01-15T00:00:00Z'))).toBe(39_600);
    expect(posixOffsetAt(sydney, at('2026-04-04T15:59:59Z'))).toBe(39_600);
    expect(posixOffsetAt(sydney, at('2026-04-04T16:00:00Z'))).toBe(36_000);
    expect(posixOffsetAt(sydney, at('2026-10-03T15:59:59Z'))).toBe(36_000);
    expect(posixOffsetAt(sydney, at('2026-10-03T16:00:00Z'))).toBe(39_600);
  });

  it('takes quoted names, minutes in offsets, times past 24 h and negative times', () => {
    expect(parsePosixRule('<+0545>-5:45')).toEqual({ standard: 20_700 });
    expect(parsePosixRule('<-03>3')).toEqual({ standard: -10_800 });
    // Israel: the Friday before the last Sunday of March, written as Thursday 26:00.
    const jerusalem = parsePosixRule('IST-2IDT,M3.4.4/26,M10.5.0')!;
    expect(posixOffsetAt(jerusalem, at('2026-03-26T23:59:59Z'))).toBe(7200);
    expect(posixOffsetAt(jerusalem, at('2026-03-27T00:00:00Z'))).toBe(10_800);
    // Nuuk: at -1:00 local standard time, which is 01:00 UTC of the last Sunday of March.
    const nuuk = parsePosixRule('<-02>2<-01>,M3.5.0/-1,M10.5.0/0')!;
    expect(posixOffsetAt(nuuk, at('2026-03-29T00:59:59Z'))).toBe(-7200);
    expect(posixOffsetAt(nuuk, at('2026-03-29T01:00:00Z'))).toBe(-3600);
    expect(posixOffsetAt(nuuk, at('2026-10-25T00:59:59Z'))).toBe(-3600);
    expect(posixOffsetAt(nuuk, at('2026-10-25T01:00:00Z'))).toBe(-7200);
  });

  it('reads Julian days (J: February 29 not counted; bare: counted) and daylight time all year', () => {
    const julian = parsePosixRule('AAA0BBB,J60/0,J300/0')!; // March 1 either way
    expect(posixOffsetAt(julian, at('2028-02-29T23:59:59Z'))).toBe(0);
    expect(posixOffsetAt(julian, at('2028-03-01T00:00:00Z'))).toBe(3600);
    const counted = parsePosixRule('AAA0BBB,59/0,300/0')!; // day 59 is March 1 in 2027, February 29 in 2028
    expect(posixOffsetAt(counted, at('2027-03-01T00:00:00Z'))).toBe(3600);
    expect(posixOffsetAt(counted, at('2028-02-29T00:00:00Z'))).toBe(3600);
    expect(posixOffsetAt(counted, at('2028-02-28T23:59:59Z'))).toBe(0);
    const always = parsePosixRule('XXX3YYY,0/0,J365/25')!;
    for (const instant of ['2026-01-01T03:00:00Z', '2026-07-01T00:00:00Z', '2026-12-31T23:00:00Z'])
      expect(posixOffsetAt(always, at(instant)), instant).toBe(-7200);
  });

  it('refuses what it cannot read: daylight time without its dates, a 13th month, a name of two letters', () => {
    for (const text of ['EST5EDT', 'GMT0BST,M13.5.0,M10.5.0', 'GM0', 'GMT0BST,M3.6.0,M10.5.0', ''])
      expect(parsePosixRule(text), text).toBeUndefined();
  });
});

describe('reading zone files', () => {
  const dirs: string[] = [];
  afterEach(() => {
    vi.restoreAllMocks();
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  function directoryWith(files: Record<string, Uint8Array | string>): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zones-'));
    dirs.push(dir);
    for (const [name, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), content);
    }
    return dir;
  }

  it('answers a zone from its file without asking Intl', () => {
    // A zone no other test here asks Intl of (@date-fns/tz keeps a formatter per zone it was asked).
    const format = vi.spyOn(Intl, 'DateTimeFormat');
    const zones = new ZoneOffsets(ZONEINFO);
    expect(zones.minutesAt('America/Nuuk', Date.parse('2026-07-01T12:00:00Z'))).toBe(-60);
    expect(zones.minutesAt('America/Nuuk', Date.parse('2026-12-01T12:00:00Z'))).toBe(-120);
    expect(format).not.toHaveBeenCalled();
  });

  it('asks Intl for a zone without a file it can read: missing, not TZif, cut short, or too large', () => {
    const london = fs.readFileSync(path.join(ZONEINFO, 'Europe/London'));
    const dir = directoryWith({
      'Europe/London': 'not a zone file',
      'Europe/Helsinki': london.subarray(0, 200),
      'Asia/Tokyo': Buffer.alloc(70 * 1024),
    });
    const zones = new ZoneOffsets(dir);
    const july = Date.parse('2026-07-01T12:00:00Z');
    expect(zones.minutesAt('Europe/London', july)).toBe(60);
    expect(zones.minutesAt('Europe/Helsinki', july)).toBe(180);
    expect(zones.minutesAt('Asia/Tokyo', july)).toBe(540);
    expect(zones.minutesAt('America/New_York', july)).toBe(-240);
    expect(loadZoneTable('Europe/London', dir)).toBeNull();
  });

  it('reads only zone names: nothing outside the directory', () => {
    const dir = directoryWith({
      'inner/Europe/London': fs.readFileSync(path.join(ZONEINFO, 'Europe/London')),
    });
    expect(loadZoneTable('Europe/London', path.join(dir, 'inner'))).not.toBeNull();
    for (const name of ['../inner/Europe/London', '/etc/passwd', 'Europe/../Europe/London', ''])
      expect(loadZoneTable(name, path.join(dir, 'inner')), name).toBeNull();
  });

  it('refuses a file with leap seconds and one whose type index is out of range', () => {
    const london = new Uint8Array(fs.readFileSync(path.join(ZONEINFO, 'Europe/London')));
    expect(readTzif(london)).toBeDefined();
    const withLeap = london.slice();
    new DataView(withLeap.buffer).setUint32(28, 1); // the version 1 header's leapcnt
    expect(readTzif(withLeap)).toBeUndefined();
    const badIndex = london.slice();
    const view = new DataView(badIndex.buffer);
    const timecnt = view.getUint32(32);
    badIndex[44 + timecnt * 4] = 200; // the first transition's type, version 1 block
    // The version 2 block is read; its indices follow its own header.
    const v1 = 44 + timecnt * 5 + view.getUint32(36) * 6 + view.getUint32(40) + view.getUint32(28) * 8;
    const v2timecnt = view.getUint32(v1 + 32);
    badIndex[v1 + 44 + v2timecnt * 8] = 200;
    expect(readTzif(badIndex)).toBeUndefined();
  });

  it('reads TZDIR, else /usr/share/zoneinfo', () => {
    expect(zoneDirectory({ TZDIR: '/opt/zones' })).toBe('/opt/zones');
    expect(zoneDirectory({ TZDIR: ' ' })).toBe('/usr/share/zoneinfo');
    expect(zoneDirectory({})).toBe('/usr/share/zoneinfo');
  });
});
