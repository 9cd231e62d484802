import type { DepartureStatus } from '@switchyard/contracts/transit';
import { h } from './dom.js';

const STATUS_TEXT: Record<DepartureStatus, { text: string; tone: string }> = {
  on_time: { text: 'On time', tone: 'success' },
  delayed: { text: 'Delayed', tone: 'warning' },
  cancelled: { text: 'Cancelled', tone: 'danger' },
  scheduled_only: { text: 'Scheduled', tone: 'muted' },
};

function delayText(seconds: number | undefined): string {
  if (seconds === undefined || Math.abs(seconds) <= 60) return '';
  const minutes = Math.round(seconds / 60);
  return minutes > 0 ? `+${minutes} min` : `${minutes} min`;
}

/** A departure's or a leg's realtime status with its delay (`Delayed +7 min`), toned by how bad it is. */
export function statusText(status: DepartureStatus, delaySeconds: number | undefined): HTMLSpanElement {
  const { text, tone } = STATUS_TEXT[status];
  return h('span', { class: tone }, [text, delayText(delaySeconds)].filter(Boolean).join(' '));
}
