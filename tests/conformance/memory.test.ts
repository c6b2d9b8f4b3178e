import { describe } from 'vitest';
import { conformanceCases, memoryBackend } from './conformance-suite.js';

describe('[memory] conformance', () => {
  conformanceCases('memory', async () => memoryBackend());
});
