import { describe } from 'vitest';
import { conformanceCases, memoryBackend } from './conformance-suite.js';
import { slicedBuilderCases } from './sliced-builder-cases.js';
import { memoryMatrixBackend, typeMatrixCases } from './type-matrix.js';
import { viewsetCases } from './viewset-cases.js';

describe('[memory] conformance', () => {
  conformanceCases('memory', async () => memoryBackend());
  slicedBuilderCases('memory', async () => memoryBackend());
  viewsetCases('memory', async () => memoryBackend());
  typeMatrixCases(async () => memoryMatrixBackend(), 'memory');
});
