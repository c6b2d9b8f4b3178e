/**
 * Lets the parent profile an HTTP server child while it is under load: `{ profile: 'start' }`
 * starts the V8 sampling profiler in the child, `{ profile: 'stop' }` stops it and sends the
 * profile back as `{ profile: <Profiler.Profile> }`. Used by `http-profile.ts`; the timed runs
 * never send these messages, so they never pay for the profiler.
 */
import { Session } from 'node:inspector/promises';

export function answerProfileRequests(): void {
  let session: Session | null = null;
  process.on('message', (message: { profile?: string }) => {
    if (message.profile === 'start' && session === null) {
      const started = new Session();
      session = started;
      started.connect();
      void (async () => {
        await started.post('Profiler.enable');
        await started.post('Profiler.setSamplingInterval', { interval: 100 });
        await started.post('Profiler.start');
        process.send?.({ profiling: true });
      })();
    } else if (message.profile === 'stop' && session !== null) {
      const running = session;
      session = null;
      void running.post('Profiler.stop').then(({ profile }) => {
        running.disconnect();
        process.send?.({ profile });
      });
    }
  });
}
