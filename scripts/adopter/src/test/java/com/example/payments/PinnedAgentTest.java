package com.example.payments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.Pipeline;
import dev.weir.engine.PipelineLayout;
import dev.weir.engine.PipelineState;
import dev.weir.engine.RunSummary;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rule run by the service itself: as an Agrona agent on the service's own thread, pinned to the last
 * CPU, following the journal; the state listener sees it start and stop.
 */
final class PinnedAgentTest
{
    @TempDir
    Path dir;

    /** @return the CPUs the calling thread may run on, as the Linux kernel lists them. */
    private static String cpusAllowed()
    {
        try
        {
            return Files.readAllLines(Path.of("/proc/thread-self/status")).stream()
                .filter(line -> line.startsWith("Cpus_allowed_list:"))
                .map(line -> line.substring("Cpus_allowed_list:".length()).trim())
                .findFirst().orElse("?");
        }
        catch (final java.io.IOException ex)
        {
            throw new java.io.UncheckedIOException(ex);
        }
    }

    @Test
    void theRuleRunsPinnedOnTheServicesOwnThread() throws Exception
    {
        new PaymentsJournal(dir).close();
        final int cpu = Runtime.getRuntime().availableProcessors() - 1;
        final List<PipelineState> states = new CopyOnWriteArrayList<>();
        final List<String> alerts = new CopyOnWriteArrayList<>();
        final CountDownLatch alerted = new CountDownLatch(1);
        final List<Throwable> errors = new CopyOnWriteArrayList<>();
        final Pipeline pipeline = SpendRule.on(dir)
            .layout(PipelineLayout.INLINE)
            .pinStages(cpu)
            .onStateChange((state, cause) -> states.add(state))
            .onResult(r ->
            {
                alerts.add(r.kind() + " " + r.sum() + " on " + Thread.currentThread().getName() + " " + cpusAllowed());
                alerted.countDown();
            })
            .build();
        final AgentRunner runner = new AgentRunner(new BackoffIdleStrategy(), errors::add, null, pipeline.asAgent());
        AgentRunner.startOnThread(runner, task -> new Thread(task, "payments-rules"));
        try (PaymentsJournal payments = new PaymentsJournal(dir))
        {
            payments.append(1_000, "card-9", "1500.00", "approved");
            assertTrue(alerted.await(120, TimeUnit.SECONDS), "no alert");
        }
        runner.close();
        final RunSummary summary = pipeline.stop();
        // AgentRunner names the service's thread after the agent's role: weir-<pipeline>-<run>-agent
        assertEquals(1, alerts.size(), alerts.toString());
        assertTrue(alerts.get(0).matches("EARLY 150000 on weir-spend-[0-9]+-agent " + cpu), alerts.toString());
        assertEquals(1, summary.eventsThisRun());
        assertEquals(List.of(), errors);
        assertEquals(PipelineState.STOPPED, pipeline.state());
        assertEquals(List.of(PipelineState.STARTING, PipelineState.RUNNING, PipelineState.STOPPING, PipelineState.STOPPED), states);
    }
}
