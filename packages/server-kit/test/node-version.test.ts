import { describe, expect, it } from 'vitest';
import { MINIMUM_NODE_VERSION, nodeVersionSupported } from '../src/node-version.js';

describe('nodeVersionSupported', () => {
  it('accepts the minimum and every later release, by major, minor and patch', () => {
    expect(MINIMUM_NODE_VERSION).toBe('22.19.0');
    for (const version of ['22.19.0', 'v22.19.0', '22.19.1', '22.23.3', 'v23.0.0', '24.11.1', '30.0.0']) {
      expect(nodeVersionSupported(version), version).toBe(true);
    }
  });

  it('refuses every earlier release, also one with a larger minor of an older major', () => {
    for (const version of ['22.18.9', 'v22.0.0', '22.12.0', 'v20.20.2', '21.99.0', '18.0.0']) {
      expect(nodeVersionSupported(version), version).toBe(false);
    }
  });
});
