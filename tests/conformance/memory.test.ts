import { describe } from 'vitest';
import { conformanceCases, memoryBackend } from './conformance-suite.js';
import { memoryMatrixBackend, typeMatrixCases } from './type-matrix.js';

describe('[memory] conformance', () => {
  conformanceCases('memory', async () => memoryBackend());
  typeMatrixCases(async () => memoryMatrixBackend(), 'memory');
});
