// The project brings its own Node.js LTS: the devDependency `node` (an official build from the npm
// registry) puts `node` in node_modules/.bin, which npm puts first on PATH for `npm start` and `npm test`,
// so every process they start (services, Jest, tsc, ESLint, Playwright) runs on it. Started another way
// (`node scripts/start.mjs` with the machine's own Node), say how to get the right one instead of
// running on an unsupported runtime.
import { readFileSync } from 'node:fs';

const wanted = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).devDependencies.node;
const major = Number(process.versions.node.split('.')[0]);
if (major !== Number(String(wanted).split('.')[0])) {
  console.error(
    `This is Node.js ${process.versions.node}; Tinkerdesk runs on Node.js ${wanted}, which \`npm install\` puts in ` +
      'node_modules/.bin. Run it through npm (`npm start`, `npm test`) or as `node_modules/.bin/node scripts/….mjs`.',
  );
  process.exit(1);
}
