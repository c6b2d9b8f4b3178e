// `node --import tsx --import ./register.mjs`: tsx first, then the marking hooks, which see its output.
import { register } from 'node:module';

register('./trace-hooks.mjs', import.meta.url);
