// What the demo prints: short, readable lines for a person, never raw JSON.

const RULE = '─'.repeat(72);

export function chapter(title: string, blurb: string): void {
  console.log(`\n${RULE}\n${title}\n${RULE}`);
  console.log(blurb);
}

/** A tool call as a person would describe it. */
export function step(toolName: string, what: string): void {
  console.log(`\n▶ ${toolName}: ${what}`);
}

export function line(text: string, indent = 1): void {
  console.log(`${'  '.repeat(indent)}${text}`);
}

/** HH:MM of an ISO 8601 time, in the offset it was written with (the city's local time). */
export function clock(iso: string): string {
  return iso.slice(11, 16);
}

export function minutes(seconds: number): string {
  return `${Math.round(seconds / 60)} min`;
}

export function signedDelay(seconds: number | undefined): string {
  if (seconds === undefined) return '';
  if (seconds === 0) return 'on the minute';
  const abs = Math.abs(seconds);
  const text = abs >= 60 ? `${Math.round(abs / 60)} min` : `${abs} s`;
  return seconds > 0 ? `${text} late` : `${text} early`;
}

export function pence(amount: number | undefined): string {
  return amount === undefined ? 'fare not given' : `£${(amount / 100).toFixed(2)}`;
}
