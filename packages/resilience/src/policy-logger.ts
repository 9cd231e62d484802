/** The part of server-kit's Logger the resilience layer uses (structural, so any logger with these fits). */
export interface PolicyLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
}
