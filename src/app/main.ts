// `npm start`: runs the App. SQLite in DATA_DIR by default, PostgreSQL when DATABASE_URL is set.
// Without APP_ID/PRIVATE_KEY it also serves Probot's setup page, which registers the App on GitHub
// from app.yml (the manifest flow) and writes the credentials to .env.
import { existsSync } from 'node:fs';
import { Probot, Server } from 'probot';
import { readAppEnv } from './env.js';
import { startDriftback } from './start.js';

async function main(): Promise<void> {
  // The setup page writes the App's credentials to .env; variables already set win.
  if (existsSync('.env')) process.loadEnvFile('.env');
  const env = readAppEnv(process.env);
  const running = await startDriftback(env, { Probot, Server });
  let stopping = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    running.log.info({ signal }, 'stopping: no new requests, finishing running jobs');
    const forced = setTimeout(() => process.exit(1), 30_000);
    forced.unref();
    try {
      await running.stop();
      process.exit(0);
    } catch (error) {
      running.log.error({ err: error }, 'error while stopping');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(`driftback: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
});
