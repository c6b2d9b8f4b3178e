import { drizzleConformance } from './drizzle-backend.js';

drizzleConformance('pglite');
