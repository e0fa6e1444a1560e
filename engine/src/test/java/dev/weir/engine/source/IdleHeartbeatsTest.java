package dev.weir.engine.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.agrona.concurrent.AgentRunner;

import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Heartbeats that cannot read the journal stop on their own, on their thread, and tell their listener why;
 * their runner's error handler (the run's failure, in a pipeline) is not told: the run goes on without them.
 */
class IdleHeartbeatsTest
{
    @TempDir
    Path dir;

    @Test
    void heartbeatsThatCannotReadTheJournalStopAndTellTheirListenerNotTheRun() throws Exception
    {
        final Path journal = dir.resolve("journal");
        try (EventJournal events = EventJournal.openOrCreate(journal))
        {
            events.append(1, 0, "k", 1);
        }
        final JournalDirectory directory = JournalDirectory.open(journal);
        breakEvents(directory);
        final CountDownLatch stopped = new CountDownLatch(1);
        final AtomicReference<RuntimeException> cause = new AtomicReference<>();
        final AtomicReference<Throwable> runFailure = new AtomicReference<>();
        final AtomicReference<AgentRunner> started = new AtomicReference<>();
        final IdleHeartbeats heartbeats = new IdleHeartbeats(directory, 100, ex ->
        {
            cause.set(ex);
            stopped.countDown();
        }).start((agent, idle) ->
        {
            final AgentRunner runner = new AgentRunner(idle, runFailure::set, null, agent);
            AgentRunner.startOnThread(runner);
            started.set(runner);
            return runner;
        });
        assertTrue(stopped.await(60, TimeUnit.SECONDS), "the listener is told");
        final Thread thread = started.get().thread();
        thread.join(TimeUnit.SECONDS.toMillis(60));
        assertFalse(thread.isAlive(), "the heartbeats' duty cycle ended on its own");
        heartbeats.close();
        assertNull(runFailure.get(), "the run is not failed");
        assertEquals("heartbeats", thread.getName());
        assertNotNull(cause.get().getMessage());
    }

    /** The fault: the events queue's directory replaced by a plain file. */
    private static void breakEvents(final JournalDirectory directory) throws IOException
    {
        final Path events = directory.eventsQueue();
        Files.move(events, events.resolveSibling("events.moved"));
        Files.writeString(events, "not a directory\n");
    }
}
