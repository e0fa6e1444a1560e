package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pipeline run as an Agrona agent under an {@link AgentRunner} writes exactly the rows of a normal INLINE
 * run over the same journal, and a second agent resumes from the checkpoint the first took on close.
 */
class PipelineAgentTest
{
    private static final int EVENTS = 2_000;

    @TempDir
    Path dir;

    @Test
    void anAgentWritesTheRowsOfAnInlineRunAndResumesAfterClose() throws Exception
    {
        final Path threaded = dir.resolve("threaded");
        final Path agent = dir.resolve("agent");
        append(threaded, 0, EVENTS);
        append(agent, 0, EVENTS);

        final List<String> expected = new ArrayList<>();
        final List<String> actual = new ArrayList<>();
        final RunSummary first = runThreaded(threaded, expected);
        final RunSummary firstAgent = runAgent(agent, actual, false);
        assertTrue(expected.size() > 10, "windows fired: " + expected.size());
        assertEquals(expected, actual, "the agent's rows are the inline run's");
        assertEquals(first.eventsThisRun(), firstAgent.eventsThisRun());

        append(threaded, EVENTS, EVENTS / 2);
        append(agent, EVENTS, EVENTS / 2);
        final int before = expected.size();
        runThreaded(threaded, expected);
        final RunSummary resumed = runAgent(agent, actual, true);
        assertTrue(expected.size() > before, "the second run fired windows too");
        assertEquals(expected, actual, "after resuming too");
        assertEquals(EVENTS / 2, resumed.eventsThisRun(), "the second agent read only the new events");
    }

    @Test
    void anAgentsFailureReachesItsListenersAndStopWithoutStoppingItsRunner() throws Exception
    {
        final Path journal = dir.resolve("failing");
        append(journal, 0, EVENTS);
        final CountDownLatch failed = new CountDownLatch(1);
        final List<Throwable> errors = new CopyOnWriteArrayList<>();
        final Pipeline pipeline = Weir.pipeline().journal(journal).window(TumblingWindows.of(1_000))
            .onResult(r ->
            {
                throw new IllegalStateException("refused");
            })
            .onFailure(cause -> failed.countDown())
            .build();
        final PipelineAgent agent = pipeline.asAgent();
        final AgentRunner runner = new AgentRunner(new BackoffIdleStrategy(), errors::add, null, agent);
        AgentRunner.startOnThread(runner);
        assertTrue(failed.await(120, TimeUnit.SECONDS), "the failure listener is told");
        assertEquals(PipelineState.FAILED, pipeline.state());
        assertEquals(0, agent.doWork(), "a failed run does no more work"); // safe off the runner: a failed run only reads its completion
        assertTrue(!runner.isClosed(), "the runner keeps running (other agents of a composite too)");
        runner.close();
        assertEquals(List.of(), errors, "nothing thrown to the runner");
        assertThrows(PipelineFailedException.class, pipeline::stop);
        pipeline.close();
    }

    private static RunSummary runThreaded(final Path journal, final List<String> rows) throws Exception
    {
        final List<String> seen = new CopyOnWriteArrayList<>();
        try (Pipeline pipeline = builder(journal, seen).layout(PipelineLayout.INLINE).build().start())
        {
            assertTrue(pipeline.awaitOffset(lastOffset(journal), 120, TimeUnit.SECONDS));
            final RunSummary summary = pipeline.stop();
            rows.addAll(seen);
            return summary;
        }
    }

    private static RunSummary runAgent(final Path journal, final List<String> rows, final boolean resumes) throws Exception
    {
        final List<String> seen = new CopyOnWriteArrayList<>();
        final List<Throwable> errors = new CopyOnWriteArrayList<>();
        final List<PipelineState> states = new CopyOnWriteArrayList<>();
        try (Pipeline pipeline = builder(journal, seen).onStateChange((state, cause) -> states.add(state)).build())
        {
            final PipelineAgent agent = pipeline.asAgent();
            if (resumes)
            {
                assertNotNull(pipeline.restoredFrom(), "resumes from the checkpoint the first agent took on close");
            }
            else
            {
                assertNull(pipeline.restoredFrom());
            }
            final AgentRunner runner = new AgentRunner(new BackoffIdleStrategy(), errors::add, null, agent);
            AgentRunner.startOnThread(runner);
            assertTrue(pipeline.awaitOffset(lastOffset(journal), 120, TimeUnit.SECONDS));
            runner.close();
            assertEquals(List.of(), errors);
            final RunSummary summary = pipeline.stop();
            assertEquals(List.of(PipelineState.STARTING, PipelineState.RUNNING, PipelineState.STOPPING, PipelineState.STOPPED), states);
            rows.addAll(seen);
            return summary;
        }
    }

    private static PipelineBuilder builder(final Path journal, final List<String> rows)
    {
        return Weir.pipeline().journal(journal).window(TumblingWindows.of(1_000)).outOfOrderness(50).checkpointEvery(300)
            .onResult(r -> rows.add(r.toString()));
    }

    private static void append(final Path journal, final int from, final int events)
    {
        try (EventJournal writer = EventJournal.openOrCreate(journal))
        {
            for (int i = from; i < from + events; i++)
            {
                writer.append(i, 100 + i * 7L - (i % 5) * 11, "k" + (i % 7), i % 101);
            }
        }
    }

    private static long lastOffset(final Path journal)
    {
        try (dev.weir.journal.JournalReader reader = dev.weir.journal.JournalReader.open(dev.weir.journal.JournalDirectory.open(journal)))
        {
            return reader.lastOffset();
        }
    }
}
