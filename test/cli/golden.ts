// Golden files of the CLI's rendered output live in ./golden.
import { fileURLToPath } from 'node:url';
import { goldenIn } from '../support/golden.js';

export const expectGolden = goldenIn(fileURLToPath(new URL('./golden', import.meta.url)));
