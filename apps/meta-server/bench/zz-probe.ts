import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { clientFor } from '@switchyard/server-kit/testing';
import { startDigitransitMock, startTflMock } from '@switchyard/upstream-mocks';

const tfl = await startTflMock();
const dt = await startDigitransitMock();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'probe-'));
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [...(process.env.PROBE_ARGS ?? '').split(' ').filter(Boolean), process.env.PROBE_BIN ?? 'bin/switchyard.js'],
  env: { ...getDefaultEnvironment(), SWITCHYARD_DATA_DIR: dataDir, SWITCHYARD_LOG_LEVEL: 'warn', TFL_API_KEY: 'k', DIGITRANSIT_SUBSCRIPTION_KEY: 'k', PLAN_JOURNEY_TPS: '10000', MEMORY_REPORT_FILE: '/tmp/memrep.json', ...(process.env.YG ? { SWITCHYARD_MAX_YOUNG_GENERATION_MB: process.env.YG } : {}),
    TFL_API_BASE_URL: tfl.url, DIGITRANSIT_ROUTING_URL: dt.routingUrl, DIGITRANSIT_GEOCODING_URL: dt.geocodingUrl },
  stderr: 'inherit',
});
const client = clientFor('modern', 'probe');
await client.connect(transport);
const pid = transport.pid!;
const snap = (label: string) => {
  const st = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const rss = /VmRSS:\s+(\d+)/.exec(st)![1]; const th = /Threads:\s+(\d+)/.exec(st)![1];
  console.log(label, 'rss MB', (Number(rss)/1024).toFixed(1), 'threads', th);
};
snap('after connect');
const calls = Number(process.env.PROBE_CALLS ?? 1000);
const names = (await client.listTools()).tools.map(t => t.name);
const mixed = [
  { name: 'get_departures', arguments: { stop: { type: 'id', value: 'HSL:1040129' }, limit: 10 } },
  { name: 'planJourney', arguments: { from: 'Bank', to: 'Mile End' } },
  { name: 'plan_trip', arguments: { origin: { type: 'coords', value: { lat: 60.1699, lon: 24.9384 } }, destination: { type: 'coords', value: { lat: 60.1989, lon: 24.9325 } } } },
  { name: 'find_stops', arguments: { name: 'Kamppi' } },
  { name: 'launch_list_runs', arguments: {} },
].filter(c => names.includes(c.name));
const cpu = () => { const f = fs.readFileSync(`/proc/${pid}/stat`,'utf8').split(') ')[1].split(' '); return (Number(f[11])+Number(f[12]))*10; };
const c0 = cpu();
const t0 = performance.now();
for (let i = 0; i < calls; i++) await client.callTool(mixed[i % mixed.length]);
console.log('server cpu ms/call', ((cpu()-c0)/calls).toFixed(3), 'calls', calls, 'ms', (performance.now()-t0).toFixed(0));
snap('after calls'); if (process.env.SNAP) { process.kill(pid,'SIGUSR2'); await new Promise(r=>setTimeout(r,8000)); } else process.kill(pid,'SIGUSR2'); await new Promise(r=>setTimeout(r,300)); const rep=process.env.SNAP ? {spaces:{}} : JSON.parse(fs.readFileSync('/tmp/memrep.json','utf8')); console.log(Object.entries(rep.spaces).map(([k,v])=>k+' '+((v as number)/1048576).toFixed(1)).join(', '));
// mappings summary
const smaps = fs.readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n');
const by = new Map<string, number>(); let cur = '';
for (const line of smaps) {
  const m = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
  if (m) { cur = m[1] || '[anon]'; continue; }
  const r = /^Rss:\s+(\d+) kB/.exec(line); if (r) by.set(cur, (by.get(cur) ?? 0) + Number(r[1]));
}
for (const [k, v] of [...by].sort((a,b)=>b[1]-a[1]).slice(0, 15)) console.log((v/1024).toFixed(1).padStart(7), k);
console.log(fs.readdirSync(`/proc/${pid}/task`).map(t => fs.readFileSync(`/proc/${pid}/task/${t}/comm`,'utf8').trim()).join(', '));
await client.close(); await tfl.close(); await dt.close();
